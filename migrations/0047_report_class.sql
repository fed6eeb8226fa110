-- The report class an expert picks from the center's report_class setting (issue 16).
ALTER TABLE diagnoses ADD COLUMN report_class TEXT NOT NULL DEFAULT '';
