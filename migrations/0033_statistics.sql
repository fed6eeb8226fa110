-- The QC indicator targets (spec 2 §7 /config/qc, §9: qcValue 90, goalValue
-- 95 by default), one row per rate key; a key without a row has the defaults.
CREATE TABLE qc_targets (
    id {{ID}},
    type TEXT NOT NULL,
    rate_key TEXT NOT NULL,
    qc_value DOUBLE PRECISION NOT NULL,
    goal_value DOUBLE PRECISION NOT NULL,
    updated_by BIGINT REFERENCES users(id),
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX qc_targets_key ON qc_targets(rate_key);

-- The statistics count events by the instant they happened: each instant
-- they read is indexed so a period is a range scan.
CREATE INDEX consultations_assigned ON consultations(assigned_at);
CREATE INDEX consultations_published ON consultations(published_at);
CREATE INDEX case_logs_action ON case_logs(action, created_at);
CREATE INDEX slide_judgements_created ON slide_judgements(created_at);
CREATE INDEX frozen_appointments_reported ON frozen_appointments(reported_at);
CREATE INDEX advices_done ON advices(done_at);
CREATE INDEX invitations_created ON invitations(created_at);
CREATE INDEX charges_charged ON charges(charged_at);
CREATE INDEX charges_refunded ON charges(refunded_at);
