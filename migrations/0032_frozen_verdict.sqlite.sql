-- The intra-operative verdict of a frozen diagnosis: '' (none), benign,
-- malignant or deferred (deferred to paraffin sections).
ALTER TABLE diagnoses ADD COLUMN frozen_verdict VARCHAR(20) NOT NULL DEFAULT '';
