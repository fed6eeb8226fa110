-- Cases shared by link (issue 15). A share's link carries a random token of
-- 128 bits or more; only its SHA-256 is kept. A secret share also needs a
-- code, kept as a SHA-256 keyed by the token's hash. expires_at NULL is a
-- permanent share; cancelled_at ends it at once. case_no, patient_name and
-- owner_name are copied at creation for the owner's list and the watermark.
CREATE TABLE shares (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    secret INTEGER NOT NULL DEFAULT 0,
    code_hash TEXT NOT NULL DEFAULT '',
    neutral_no TEXT NOT NULL,
    case_no TEXT NOT NULL DEFAULT '',
    patient_name TEXT NOT NULL DEFAULT '',
    owner_name TEXT NOT NULL DEFAULT '',
    with_report INTEGER NOT NULL DEFAULT 0,
    with_attachments INTEGER NOT NULL DEFAULT 0,
    with_clinical INTEGER NOT NULL DEFAULT 0,
    deidentify INTEGER NOT NULL DEFAULT 0,
    expires_at {{TS}},
    cancelled_at {{TS}},
    visits BIGINT NOT NULL DEFAULT 0,
    last_visit_at {{TS}},
    created_at {{TS}} NOT NULL
);
CREATE INDEX shares_user ON shares(user_id, created_at);
CREATE INDEX shares_consult ON shares(consult_id);

-- Every visit of a share (time, address, what was opened). A visit that
-- passed the link (and code) holds a ticket, kept hashed, that opens the
-- share's report and attachments while the share lives.
CREATE TABLE share_visits (
    id {{ID}},
    share_id BIGINT NOT NULL REFERENCES shares(id),
    ticket_hash TEXT,
    ip TEXT NOT NULL DEFAULT '',
    opened TEXT NOT NULL,
    at {{TS}} NOT NULL
);
CREATE INDEX share_visits_share ON share_visits(share_id, at);
CREATE UNIQUE INDEX share_visits_ticket ON share_visits(ticket_hash);

-- Wrong codes of a share, per address and for all addresses together ('*').
CREATE TABLE share_failures (
    share_id BIGINT NOT NULL REFERENCES shares(id),
    ip TEXT NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    blocked_until {{TS}},
    updated_at {{TS}} NOT NULL,
    PRIMARY KEY (share_id, ip)
);
