-- A case whose supplementary report waits for its reviewer, kept on the case
-- row (like its other state flags) so that the "to review" worklist tab is an
-- index lookup rather than a search of every diagnosis.
ALTER TABLE consultations ADD COLUMN supplement_review INTEGER NOT NULL DEFAULT 0;
UPDATE consultations SET supplement_review = 1
    WHERE id IN (SELECT consult_id FROM diagnoses WHERE type = 1 AND status = 'to_review');
CREATE INDEX consultations_supplement_review ON consultations(supplement_review, created_at);
