-- Lists are scoped by hospital, center or expert and usually sorted by
-- date: these let the first page come from an index walk, not a sort.
CREATE INDEX consultations_hospital_created ON consultations(hospital_id, created_at);
CREATE INDEX consultations_center_created ON consultations(center_id, created_at);
CREATE INDEX consultations_expert_created ON consultations(expert_id, created_at);
CREATE INDEX consultations_status_created ON consultations(status, created_at);
