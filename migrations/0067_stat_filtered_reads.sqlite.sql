-- Rollup reads of one expert or one hospital (issue 14): an expert's own
-- screens, or a site's screens keyed by expert or library, read the finest
-- grain (0) of stat_daily, where the key's index (figure, grain, day, ...)
-- walks every row of the figure over the period to keep one expert's or
-- one hospital's: some 350,000 rows for three years, four seconds at 1M
-- cases. These partial indexes hold the grain's rows by figure and expert,
-- and by figure and hospital, with every column the reads use, so such a
-- read walks only its own rows (a tenth of a second). The statistics
-- service names the grain as a literal, so that SQLite can use them.
CREATE INDEX stat_daily_expert ON stat_daily(figure, expert_id, day, center_id, hospital_id, library_id, n) WHERE grain = 0;
CREATE INDEX stat_daily_hospital ON stat_daily(figure, hospital_id, day, center_id, expert_id, library_id, n) WHERE grain = 0;
