-- The expert who returned a case to the center keeps seeing it in their
-- returned list until the center assigns it again.
ALTER TABLE consultations ADD COLUMN returned_by BIGINT REFERENCES users(id);
