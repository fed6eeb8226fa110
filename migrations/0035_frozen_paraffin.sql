-- The paraffin (permanent) case registered after a frozen case (spec 2 §7
-- after_frozen_paraffin_block), and how its diagnosis compares with the
-- frozen one (frozen–paraffin concordance): '' not judged yet, concordant,
-- discordant (the paraffin diagnosis contradicts the frozen verdict), or
-- deferred (the frozen diagnosis deferred to paraffin sections).
ALTER TABLE frozen_appointments ADD COLUMN paraffin_case_id BIGINT REFERENCES consultations(id);
ALTER TABLE frozen_appointments ADD COLUMN concordance VARCHAR(20) NOT NULL DEFAULT '';
ALTER TABLE frozen_appointments ADD COLUMN concordance_note TEXT NOT NULL DEFAULT '';
ALTER TABLE frozen_appointments ADD COLUMN concordance_by BIGINT REFERENCES users(id);
ALTER TABLE frozen_appointments ADD COLUMN concordance_at {{TS}};
CREATE UNIQUE INDEX frozen_appointments_paraffin ON frozen_appointments(paraffin_case_id);
