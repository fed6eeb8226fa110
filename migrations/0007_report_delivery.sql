-- Reports after publication: printing and delivery by the site (spec 2 §4
-- Case display status: 1 to print, 2 to send, 3 sent).
ALTER TABLE consultations ADD COLUMN print_deliver_status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE diagnoses ADD COLUMN print_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE diagnoses ADD COLUMN print_at {{TS}};
ALTER TABLE diagnoses ADD COLUMN deliver_at {{TS}};
CREATE INDEX consultations_print ON consultations(hospital_id, print_deliver_status);
