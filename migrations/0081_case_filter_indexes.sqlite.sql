-- The case lists' filters at a million cases (issue 17), on SQLite.
-- consultations_hospital_state (hospital_id, status, created_at) of 0028 is
-- a prefix of 0075's consultations_live_hospital, which every list reads
-- (each scope says deleted_at IS NULL) and which also holds release_at,
-- expedite and inspection_date. Where neither covers a list's page (its
-- rows' columns), SQLite took the smaller old one and looked up every case
-- of the hospital and status in the date range to test expedite and
-- inspection_date, where the newer one tests them in the index first.
DROP INDEX consultations_hospital_state;
-- The expedite filter is an equality most lists and counts may add to a
-- hospital's (site) or hospitals' (admin) cases of a creation period: with
-- it second, a count of one flag reads the flagged cases' rows only.
CREATE INDEX consultations_live_hospital_expedite ON consultations(hospital_id, expedite, created_at, id, deleted_at)
    WHERE deleted_at IS NULL;
ANALYZE consultations_live_hospital_expedite;
