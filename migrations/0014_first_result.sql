-- The administrator's verdict on the first (original) report of a case after
-- a counter-audit (spec 2 §7 /admin/change_diagnosis_first_result): does the
-- first diagnosis stand, for quality statistics.
ALTER TABLE diagnoses ADD COLUMN first_result TEXT NOT NULL DEFAULT '';
ALTER TABLE diagnoses ADD COLUMN first_result_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE diagnoses ADD COLUMN first_result_by BIGINT REFERENCES users(id);
ALTER TABLE diagnoses ADD COLUMN first_result_at {{TS}};
