-- Loans of a case's glass slides and paraffin blocks (spec 2 §3 Borrow,
-- §4 Borrow states, §9 borrow types). hospital_id and center_id are the
-- case's, copied at the request: they scope who sees the loan. due_date is
-- the center's calendar day (YYYY-MM-DD); deposit and compensation are yuan.
CREATE TABLE borrows (
    id {{ID}},
    borrow_no TEXT NOT NULL DEFAULT '',
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    center_id BIGINT NOT NULL REFERENCES centers(id),
    type TEXT NOT NULL,
    borrower TEXT NOT NULL,
    borrower_phone TEXT NOT NULL DEFAULT '',
    purpose TEXT NOT NULL DEFAULT '',
    slides INTEGER NOT NULL DEFAULT 0,
    blocks INTEGER NOT NULL DEFAULT 0,
    items TEXT NOT NULL DEFAULT '',
    due_date TEXT NOT NULL,
    deposit BIGINT NOT NULL DEFAULT 0,
    payee TEXT NOT NULL DEFAULT '',
    damaged INTEGER NOT NULL DEFAULT 0,
    compensation BIGINT NOT NULL DEFAULT 0,
    review_note TEXT NOT NULL DEFAULT '',
    return_note TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    requested_by BIGINT NOT NULL REFERENCES users(id),
    reviewed_by BIGINT REFERENCES users(id),
    reviewed_at {{TS}},
    lent_by BIGINT REFERENCES users(id),
    lent_at {{TS}},
    returned_by BIGINT REFERENCES users(id),
    returned_at {{TS}},
    version BIGINT NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX borrows_center ON borrows(center_id, status);
CREATE INDEX borrows_hospital ON borrows(hospital_id, status);
CREATE INDEX borrows_consult ON borrows(consult_id, status);

-- A case's material in the center's archive (spec 2 §3 Archive, §4 Archive
-- states), one record per case, made when the center receives it. status
-- is not_archived or archived (a case without a record is to be received);
-- archived_at is the first store, stored_at the last.
CREATE TABLE archives (
    consult_id BIGINT PRIMARY KEY REFERENCES consultations(id),
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    center_id BIGINT NOT NULL REFERENCES centers(id),
    archive_no TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    room TEXT NOT NULL DEFAULT '',
    box_no TEXT NOT NULL DEFAULT '',
    locker_no TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    archiver_id BIGINT REFERENCES users(id),
    received_at {{TS}},
    archived_at {{TS}},
    stored_at {{TS}},
    version BIGINT NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX archives_center ON archives(center_id, status);
