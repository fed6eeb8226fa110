-- Review of supplementary reports (spec 2 §5): the reviewer finds the
-- supplements waiting for them, and the case lists tell which cases have one
-- under review.
CREATE INDEX diagnoses_reviewer ON diagnoses(reviewer_id, type, status);
CREATE INDEX diagnoses_status ON diagnoses(type, status, consult_id);
