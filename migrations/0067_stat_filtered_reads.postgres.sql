-- Rollup reads of one expert or one hospital (issue 14): an expert's own
-- screens, or a site's screens keyed by expert or library, read the finest
-- grain (0) of stat_daily, where the key's index (figure, grain, day, ...)
-- walks every row of the figure over the period to keep one expert's or
-- one hospital's: some 350,000 rows for three years, seconds at 1M cases.
-- These partial indexes hold the grain's rows by figure and expert, and by
-- figure and hospital, with every column the reads use, so such a read is
-- an index-only walk of its own rows (a three-year figure of one expert:
-- 1.7 s → 23 ms). They hold n, so a rollup's update is no longer made in
-- place (HOT): the price of these reads, paid by the triggers. The
-- statistics service names the grain as a literal, so that the planner
-- knows a query matches them.
CREATE INDEX stat_daily_expert ON stat_daily(figure, expert_id, day) INCLUDE (center_id, hospital_id, library_id, n) WHERE grain = 0;
CREATE INDEX stat_daily_hospital ON stat_daily(figure, hospital_id, day) INCLUDE (center_id, expert_id, library_id, n) WHERE grain = 0;
