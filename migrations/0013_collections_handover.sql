-- The expert's favourite cases (spec 2 §3 Consultation is_collected,
-- §7 /consultation/collection) and the handover of a case to a colleague,
-- which the expert may recall until the colleague starts on it (spec 2 §7
-- /diagnosis/handover, diagnosis_is_handover).
CREATE TABLE case_collections (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users(id),
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    created_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX case_collections_user ON case_collections(user_id, consult_id);

CREATE TABLE handovers (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    from_id BIGINT NOT NULL REFERENCES users(id),
    to_id BIGINT NOT NULL REFERENCES users(id),
    note TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'pending',
    created_at {{TS}} NOT NULL,
    decided_at {{TS}}
);
CREATE INDEX handovers_consult ON handovers(consult_id, id);

-- The expert who handed a case over keeps seeing it (to recall it) while
-- the handover is pending.
ALTER TABLE consultations ADD COLUMN handover_from BIGINT REFERENCES users(id);
