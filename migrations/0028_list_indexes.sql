-- Indexes for the case lists at a million cases: every sort ends on the id
-- tie-break, every tab of rare states has its own way in, and the expert's
-- scope (cases they review, returned or handed over) can be read by index.

DROP INDEX consultations_created;
CREATE INDEX consultations_created ON consultations(created_at, id);
DROP INDEX consultations_hospital_created;
CREATE INDEX consultations_hospital_created ON consultations(hospital_id, created_at, id);
DROP INDEX consultations_center_created;
CREATE INDEX consultations_center_created ON consultations(center_id, created_at, id);
DROP INDEX consultations_status_created;
CREATE INDEX consultations_status_created ON consultations(status, created_at, id);
CREATE INDEX consultations_submitted ON consultations(submitted_at, id);
CREATE INDEX consultations_recall ON consultations(is_recall, created_at);
CREATE INDEX consultations_return ON consultations(is_return, created_at);
CREATE INDEX consultations_reviewer ON consultations(reviewer_id) WHERE reviewer_id IS NOT NULL;
CREATE INDEX consultations_returned_by ON consultations(returned_by) WHERE returned_by IS NOT NULL;
CREATE INDEX consultations_handover_from ON consultations(handover_from) WHERE handover_from IS NOT NULL;
CREATE INDEX consultations_timeout ON consultations(timeout_at) WHERE timeout_at IS NOT NULL;
CREATE INDEX consultations_remind ON consultations(remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX consultations_release ON consultations(release_at) WHERE release_at IS NOT NULL;
CREATE INDEX consultations_deliver ON consultations(print_deliver_status, release_at);
CREATE INDEX invitations_invitee_consult ON invitations(invitee_id, consult_id);
CREATE INDEX diagnoses_reviewer_consult ON diagnoses(reviewer_id, type, consult_id);
CREATE INDEX consultations_hospital_state ON consultations(hospital_id, status, created_at);
CREATE INDEX consultations_center_state ON consultations(center_id, status, created_at);
CREATE INDEX consultations_hospital_recall ON consultations(hospital_id, is_recall, created_at);
CREATE INDEX consultations_hospital_return ON consultations(hospital_id, is_return, created_at);
ANALYZE consultations;
