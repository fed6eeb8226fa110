-- The expert's work on a case: diagnoses (reports and their versions),
-- the lock that lets one expert edit, review, invitations and templates.

ALTER TABLE consultations ADD COLUMN locked_by BIGINT REFERENCES users(id);
ALTER TABLE consultations ADD COLUMN reviewer_id BIGINT REFERENCES users(id);
ALTER TABLE consultations ADD COLUMN release_at {{TS}};
ALTER TABLE consultations ADD COLUMN delay_days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE consultations ADD COLUMN delay_reason TEXT NOT NULL DEFAULT '';

CREATE TABLE diagnoses (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    type INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL DEFAULT 'draft',
    microscopic TEXT NOT NULL DEFAULT '',
    opinion TEXT NOT NULL DEFAULT '',
    gross_description TEXT NOT NULL DEFAULT '',
    remark TEXT NOT NULL DEFAULT '',
    critical_values TEXT NOT NULL DEFAULT '',
    doctor_id BIGINT NOT NULL REFERENCES users(id),
    reviewer_id BIGINT REFERENCES users(id),
    review_note TEXT NOT NULL DEFAULT '',
    report_no TEXT NOT NULL DEFAULT '',
    verify_code TEXT NOT NULL DEFAULT '',
    published_at {{TS}},
    release_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX diagnoses_consult ON diagnoses(consult_id, type, version);
CREATE INDEX diagnoses_verify ON diagnoses(verify_code);

CREATE TABLE invitations (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    inviter_id BIGINT NOT NULL REFERENCES users(id),
    invitee_id BIGINT NOT NULL REFERENCES users(id),
    message TEXT NOT NULL DEFAULT '',
    reply TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 0,
    created_at {{TS}} NOT NULL,
    replied_at {{TS}}
);
CREATE INDEX invitations_invitee ON invitations(invitee_id, status);
CREATE INDEX invitations_consult ON invitations(consult_id);

CREATE TABLE diagnosis_templates (
    id {{ID}},
    name TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT '',
    microscopic TEXT NOT NULL DEFAULT '',
    opinion TEXT NOT NULL DEFAULT '',
    gross_description TEXT NOT NULL DEFAULT '',
    owner_id BIGINT REFERENCES users(id),
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
