INSERT INTO pages (id, slug, title, body, category, updated_at) VALUES
 (1, 'welcome', 'Welcome', 'This is the team wiki. Start with the Onboarding page, then read the Coffee Machine guide.', 'General', '2026-09-01 08:00:00'),
 (2, 'onboarding', 'Onboarding', 'Day one: collect your badge at reception (floor 2).
Day two: set up your laptop with the IT desk.
The office opens at 08:00 and closes at 19:00.', 'HR', '2026-10-12 10:30:00'),
 (3, 'coffee-machine', 'Coffee Machine', 'The machine on floor 3 takes beans, not capsules.
Descale it every Friday. Call facilities at extension 4410 when it shows error E7.', 'Facilities', '2026-10-20 14:05:00'),
 (4, 'release-process', 'Release Process', 'Releases go out on Tuesdays.
1. Freeze the branch on Monday at 16:00.
2. Run the full test suite.
3. Tag the release as vMAJOR.MINOR.PATCH.', 'Engineering', '2026-11-02 09:45:00'),
 (5, 'parking', 'Parking', 'Visitor parking is in lot B. Staff parking permits cost 30 EUR per month.', 'Facilities', '2026-08-15 12:00:00'),
 (6, 'holidays', 'Holidays', 'Everyone has 25 days of paid leave per year. Book leave in the HR portal two weeks ahead.', 'HR', '2026-07-30 16:20:00');
INSERT INTO revisions (page_id, title, body, summary, author, created_at) VALUES
 (1, 'Welcome', 'This is the team wiki.', 'first version', 'alex', '2026-08-20 08:00:00'),
 (1, 'Welcome', 'This is the team wiki. Start with the Onboarding page, then read the Coffee Machine guide.', 'link the guides', 'sam', '2026-09-01 08:00:00'),
 (2, 'Onboarding', 'Day one: collect your badge at reception (floor 2).
Day two: set up your laptop with the IT desk.
The office opens at 08:00 and closes at 19:00.', 'first version', 'kim', '2026-10-12 10:30:00'),
 (3, 'Coffee Machine', 'The machine on floor 3 takes capsules.', 'first version', 'alex', '2026-09-10 11:00:00'),
 (3, 'Coffee Machine', 'The machine on floor 3 takes beans, not capsules.
Descale it every Friday. Call facilities at extension 4410 when it shows error E7.', 'new machine', 'lee', '2026-10-20 14:05:00'),
 (4, 'Release Process', 'Releases go out on Tuesdays.
1. Freeze the branch on Monday at 16:00.
2. Run the full test suite.
3. Tag the release as vMAJOR.MINOR.PATCH.', 'first version', 'sam', '2026-11-02 09:45:00'),
 (5, 'Parking', 'Visitor parking is in lot B. Staff parking permits cost 30 EUR per month.', 'first version', 'kim', '2026-08-15 12:00:00'),
 (6, 'Holidays', 'Everyone has 25 days of paid leave per year. Book leave in the HR portal two weeks ahead.', 'first version', 'lee', '2026-07-30 16:20:00');
INSERT INTO comments (page_id, author, body, created_at) VALUES
 (3, 'sam', 'Error E7 again this morning.', '2026-11-10 09:12:00');
