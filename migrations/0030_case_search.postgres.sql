-- Search of the case lists (any part of a consultation number, pathology
-- number or patient name, ILIKE '%…%') read by trigram index. Texts of one
-- or two characters have no trigram; those searches still scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
CREATE INDEX consultations_search ON consultations USING gin (consult_no public.gin_trgm_ops, pathology_number public.gin_trgm_ops, patient_name public.gin_trgm_ops);
