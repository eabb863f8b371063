INSERT INTO products (id, sku, name, category, price_cents, stock, rating, description) VALUES
 (1, 'KB-101', 'Compact Mechanical Keyboard', 'Computers', 7999, 14, 4.5, 'Tenkeyless keyboard with brown switches and a detachable USB-C cable.'),
 (2, 'MS-210', 'Wireless Mouse', 'Computers', 2499, 40, 4.2, 'Silent-click mouse, 1600 dpi, runs a year on one AA battery.'),
 (3, 'MN-270', '27-inch 4K Monitor', 'Computers', 32900, 6, 4.7, 'IPS panel, 3840x2160, USB-C with 65 W power delivery.'),
 (4, 'HB-007', 'USB-C Hub 7-in-1', 'Computers', 3999, 25, 4.0, 'HDMI, two USB-A, SD and microSD readers, Ethernet, pass-through charging.'),
 (5, 'LS-033', 'Aluminium Laptop Stand', 'Computers', 2999, 0, 4.4, 'Raises a laptop by 15 cm; folds flat. Currently out of stock.'),
 (6, 'HP-450', 'Noise-Cancelling Headphones', 'Audio', 19900, 9, 4.6, 'Over-ear, 30 hours of battery, active noise cancelling.'),
 (7, 'SP-120', 'Bluetooth Speaker', 'Audio', 4599, 18, 4.1, 'Waterproof (IP67) speaker with 12 hours of playback.'),
 (8, 'EB-300', 'Wireless Earbuds', 'Audio', 8900, 22, 3.9, 'In-ear buds with a charging case and touch controls.'),
 (9, 'MC-050', 'USB Microphone', 'Audio', 6450, 7, 4.3, 'Cardioid condenser microphone for calls and podcasts.'),
 (10, 'CF-900', 'Drip Coffee Maker', 'Kitchen', 5400, 11, 4.0, 'Ten cups, programmable timer, glass carafe.'),
 (11, 'KT-170', 'Electric Kettle 1.7 L', 'Kitchen', 3250, 30, 4.5, 'Stainless steel kettle with temperature presets.'),
 (12, 'GR-020', 'Burr Coffee Grinder', 'Kitchen', 7800, 5, 4.6, 'Conical burrs, 18 grind settings.'),
 (13, 'PN-280', 'Non-Stick Frying Pan 28 cm', 'Kitchen', 2799, 16, 4.2, 'Induction-ready pan with a ceramic coating.'),
 (14, 'MG-012', 'Ceramic Mug Set (4)', 'Kitchen', 1999, 50, 4.8, 'Four 350 ml mugs in blue, green, grey and sand.'),
 (15, 'NB-A5', 'Dotted Notebook A5', 'Office', 1250, 80, 4.7, '160 pages of 100 g/m2 paper, lay-flat binding.'),
 (16, 'PN-G07', 'Gel Pens (10 pack)', 'Office', 899, 120, 4.1, 'Black gel pens, 0.7 mm.'),
 (17, 'DL-LED', 'LED Desk Lamp', 'Office', 3499, 13, 4.4, 'Dimmable lamp with three colour temperatures and a USB charging port.'),
 (18, 'CH-ERG', 'Ergonomic Office Chair', 'Office', 24900, 3, 4.3, 'Mesh back, adjustable lumbar support and armrests.'),
 (19, 'WB-090', 'Whiteboard 90x60 cm', 'Office', 4200, 8, 4.0, 'Magnetic whiteboard with a marker tray.'),
 (20, 'BP-015', 'Laptop Backpack 15"', 'Office', 5900, 19, 4.5, 'Water-repellent backpack with a padded laptop sleeve.');
INSERT INTO coupons (code, percent_off, active) VALUES ('WELCOME10', 10, 1), ('SPRING25', 25, 0);
INSERT INTO orders (id, created_at, name, email, address, shipping, coupon, total_cents, status) VALUES
 (1, '2026-10-02 09:15:00', 'Robin Park', 'robin@example.com', '12 Elm Street, Springfield', 'standard', NULL, 5498, 'shipped'),
 (2, '2026-11-03 17:40:00', 'Robin Park', 'robin@example.com', '12 Elm Street, Springfield', 'express', NULL, 33900, 'placed');
INSERT INTO order_items (order_id, product_id, qty, price_cents) VALUES
 (1, 2, 1, 2499), (1, 14, 1, 1999), (2, 3, 1, 32900);
