INSERT INTO customers (id, name, email, company, city, status, tier, newsletter, notes, created_at) VALUES
 (1, 'Ada Moreno', 'ada@moreno.example', 'Moreno Bakery', 'Lisbon', 'active', 'pro', 1, 'Prefers calls in the morning.', '2026-01-14 10:00:00'),
 (2, 'Ben Okafor', 'ben@okafor.example', 'Okafor Logistics', 'Lagos', 'active', 'enterprise', 0, '', '2026-02-03 09:30:00'),
 (3, 'Chloe Martin', 'chloe@martin.example', 'Martin & Fils', 'Lyon', 'lead', 'basic', 1, 'Met at the trade fair.', '2026-03-22 15:45:00'),
 (4, 'Dmitri Ivanov', 'dmitri@ivanov.example', 'Ivanov Tools', 'Riga', 'inactive', 'basic', 0, 'Contract ended in June.', '2025-11-08 11:20:00'),
 (5, 'Elena Rossi', 'elena@rossi.example', 'Rossi Design', 'Milan', 'active', 'pro', 1, '', '2026-04-01 13:10:00'),
 (6, 'Farid Haddad', 'farid@haddad.example', 'Haddad Imports', 'Lisbon', 'lead', 'basic', 0, '', '2026-05-19 16:00:00'),
 (7, 'Grace Liu', 'grace@liu.example', 'Liu Analytics', 'Singapore', 'active', 'enterprise', 1, 'Renewal due in December.', '2026-06-07 08:25:00'),
 (8, 'Hugo Schmidt', 'hugo@schmidt.example', 'Schmidt GmbH', 'Berlin', 'active', 'basic', 0, '', '2026-06-30 12:00:00'),
 (9, 'Ines Duarte', 'ines@duarte.example', 'Duarte Travel', 'Porto', 'inactive', 'pro', 0, '', '2025-09-12 17:40:00'),
 (10, 'Jonas Berg', 'jonas@berg.example', 'Berg Consulting', 'Oslo', 'lead', 'pro', 1, 'Asked for a demo.', '2026-07-15 10:50:00'),
 (11, 'Keiko Tanaka', 'keiko@tanaka.example', 'Tanaka Foods', 'Osaka', 'active', 'pro', 0, '', '2026-08-02 09:05:00'),
 (12, 'Liam Walsh', 'liam@walsh.example', 'Walsh Media', 'Dublin', 'active', 'basic', 1, '', '2026-08-21 14:30:00'),
 (13, 'Maya Cohen', 'maya@cohen.example', 'Cohen Labs', 'Berlin', 'lead', 'enterprise', 0, 'Security review pending.', '2026-09-09 11:15:00'),
 (14, 'Nils Petersen', 'nils@petersen.example', 'Petersen Marine', 'Oslo', 'active', 'pro', 0, '', '2026-09-28 15:20:00'),
 (15, 'Olivia Brown', 'olivia@brown.example', 'Brown Architects', 'Dublin', 'inactive', 'basic', 1, '', '2025-12-01 10:10:00'),
 (16, 'Pablo Garcia', 'pablo@garcia.example', 'Garcia Wines', 'Lisbon', 'active', 'basic', 1, '', '2026-10-11 09:40:00');
INSERT INTO requests (id, customer_id, category, priority, subject, message, contact_by, due_date, status, created_at) VALUES
 (1, 2, 'billing', 'normal', 'Invoice 4471 is missing the VAT number', 'Please add our VAT number to invoice 4471.', 'email', NULL, 'open', '2026-11-05 10:00:00'),
 (2, 7, 'technical', 'high', 'Export to CSV times out', 'Exporting more than 10,000 rows never finishes.', 'phone', '2026-11-30', 'open', '2026-11-12 16:30:00');
INSERT INTO settings (key, value) VALUES
 ('company_name', 'Northwind Services'),
 ('support_email', 'support@northwind.example'),
 ('currency', 'EUR'),
 ('timezone', 'Europe/Lisbon'),
 ('page_size', '10'),
 ('theme', 'light'),
 ('notify_new_requests', '1'),
 ('weekly_report', '0');
