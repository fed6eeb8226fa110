-- An expert's availability for new cases (PATCH /user/diagnosis/status):
-- away (1) with an optional note and the day they expect to be back
-- (YYYY-MM-DD, '' when not said). The allocator's dialog shows it.
ALTER TABLE users ADD COLUMN away SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN away_note VARCHAR(200) NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN away_until VARCHAR(10) NOT NULL DEFAULT '';
