-- A tab's cases in the order of any column the screens sort by (issue 17),
-- on SQLite. A tab of one status (completed is nearly every case) sorted by
-- another column than its own index's made SQLite take the cases of that
-- status by an index on status and sort them all: 10 to 24 s at a million
-- cases for one page of "completed". Each sortable column has an index
-- after status, ending in the key in both directions (the lists' tie-break
-- is id DESC: ascending pages walk …_up forwards, descending ones the
-- other backwards), so the page is the first rows of an index walk.
-- PostgreSQL walks the column's own index and filters the status.
-- ANALYZE (as 0028 did) so that a database with statistics has them for the
-- new indexes too: unmeasured, SQLite takes them for selective and reads a
-- whole status through one of them to sort it by id.
CREATE INDEX consultations_status_created_up ON consultations(status, created_at, id DESC);
CREATE INDEX consultations_status_no ON consultations(status, consult_no, id);
CREATE INDEX consultations_status_no_up ON consultations(status, consult_no, id DESC);
CREATE INDEX consultations_status_pathology ON consultations(status, pathology_number, id);
CREATE INDEX consultations_status_pathology_up ON consultations(status, pathology_number, id DESC);
CREATE INDEX consultations_status_patient ON consultations(status, patient_name, id);
CREATE INDEX consultations_status_patient_up ON consultations(status, patient_name, id DESC);
CREATE INDEX consultations_status_age ON consultations(status, age, id);
CREATE INDEX consultations_status_age_up ON consultations(status, age, id DESC);
CREATE INDEX consultations_status_slides ON consultations(status, slide_count, id);
CREATE INDEX consultations_status_slides_up ON consultations(status, slide_count, id DESC);
CREATE INDEX consultations_status_inspection ON consultations(status, inspection_date, id);
CREATE INDEX consultations_status_inspection_up ON consultations(status, inspection_date, id DESC);
CREATE INDEX consultations_status_submitted ON consultations(status, submitted_at, id);
CREATE INDEX consultations_status_submitted_up ON consultations(status, submitted_at, id DESC);
CREATE INDEX consultations_status_timeout ON consultations(status, timeout_at, id);
CREATE INDEX consultations_status_timeout_up ON consultations(status, timeout_at, id DESC);
ANALYZE consultations;
