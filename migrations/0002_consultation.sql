-- Pathology libraries (banks), cases, consultations and what belongs to them.

CREATE TABLE libraries (
    id {{ID}},
    name TEXT NOT NULL,
    pis_code TEXT NOT NULL DEFAULT '',
    parent_id BIGINT REFERENCES libraries(id),
    number_name TEXT NOT NULL DEFAULT '',
    prefix TEXT NOT NULL DEFAULT '',
    middle_digits INTEGER NOT NULL DEFAULT 0,
    symbol TEXT NOT NULL DEFAULT '',
    digit_length INTEGER NOT NULL DEFAULT 0,
    delay_hours INTEGER NOT NULL DEFAULT 3,
    report_kind TEXT NOT NULL DEFAULT 'routine',
    status INTEGER NOT NULL DEFAULT 1,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);

CREATE TABLE timeout_configs (
    id {{ID}},
    name TEXT NOT NULL,
    hours INTEGER NOT NULL,
    remind_hours INTEGER NOT NULL DEFAULT 24,
    expedite INTEGER NOT NULL DEFAULT 0,
    is_default INTEGER NOT NULL DEFAULT 0,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);

CREATE TABLE charge_items (
    id {{ID}},
    name TEXT NOT NULL,
    inner_code TEXT NOT NULL DEFAULT '',
    input_code TEXT NOT NULL DEFAULT '',
    item_code TEXT NOT NULL DEFAULT '',
    price_fen BIGINT NOT NULL,
    unit TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 1,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);

CREATE TABLE consultations (
    id {{ID}},
    consult_no TEXT NOT NULL DEFAULT '',
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    center_id BIGINT REFERENCES centers(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    library_id BIGINT REFERENCES libraries(id),
    status INTEGER NOT NULL DEFAULT 0,
    is_draft INTEGER NOT NULL DEFAULT 1,
    is_recall INTEGER NOT NULL DEFAULT 0,
    is_return INTEGER NOT NULL DEFAULT 0,
    is_lock INTEGER NOT NULL DEFAULT 0,
    manage_confirm INTEGER NOT NULL DEFAULT 0,
    expert_id BIGINT REFERENCES users(id),
    requested_expert_id BIGINT REFERENCES users(id),
    staff_id BIGINT REFERENCES users(id),
    charge_status INTEGER NOT NULL DEFAULT 1,
    slide_count INTEGER NOT NULL DEFAULT 0,
    expedite INTEGER NOT NULL DEFAULT 0,
    timeout_id BIGINT REFERENCES timeout_configs(id),
    timeout_at {{TS}},
    remind_at {{TS}},
    submitted_at {{TS}},
    assigned_at {{TS}},
    published_at {{TS}},
    recall_reason TEXT NOT NULL DEFAULT '',
    return_reason TEXT NOT NULL DEFAULT '',
    timeout_reason TEXT NOT NULL DEFAULT '',
    -- patient and case, denormalised for the lists
    pathology_number TEXT NOT NULL DEFAULT '',
    patient_name TEXT NOT NULL DEFAULT '',
    gender TEXT NOT NULL DEFAULT '',
    age INTEGER,
    age_unit TEXT NOT NULL DEFAULT 'year',
    inspection_date {{TS}},
    case_data {{JSON}} NOT NULL DEFAULT '{}',
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX consultations_hospital ON consultations(hospital_id, status, id);
CREATE INDEX consultations_center ON consultations(center_id, status, id);
CREATE INDEX consultations_expert ON consultations(expert_id, status, id);
CREATE INDEX consultations_created ON consultations(created_at);
CREATE INDEX consultations_pathology ON consultations(pathology_number);
CREATE INDEX consultations_patient ON consultations(patient_name);
CREATE INDEX consultations_no ON consultations(consult_no);

CREATE TABLE specimens (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    serial_number TEXT NOT NULL DEFAULT '1',
    name TEXT NOT NULL,
    part TEXT NOT NULL DEFAULT '',
    specimen_type TEXT NOT NULL DEFAULT 'ex_specimen',
    count INTEGER NOT NULL DEFAULT 1,
    fixative TEXT NOT NULL DEFAULT '',
    leave_body_at {{TS}},
    fixed_at {{TS}},
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX specimens_consult ON specimens(consult_id);

CREATE TABLE paraffin_blocks (
    id {{ID}},
    specimen_id BIGINT NOT NULL REFERENCES specimens(id),
    name TEXT NOT NULL,
    slide_number TEXT NOT NULL DEFAULT '',
    draw_part TEXT NOT NULL DEFAULT '',
    gross_description TEXT NOT NULL DEFAULT '',
    origin_block TEXT NOT NULL DEFAULT '',
    origin_slide TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX paraffin_blocks_specimen ON paraffin_blocks(specimen_id);

CREATE TABLE files (
    id {{ID}},
    kind TEXT NOT NULL,
    owner_id BIGINT NOT NULL REFERENCES users(id),
    hospital_id BIGINT REFERENCES hospitals(id),
    filename TEXT NOT NULL,
    path TEXT NOT NULL,
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL DEFAULT '',
    content_type TEXT NOT NULL DEFAULT '',
    created_at {{TS}} NOT NULL
);

CREATE TABLE attachments (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    file_id BIGINT NOT NULL REFERENCES files(id),
    type INTEGER NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at {{TS}} NOT NULL
);
CREATE INDEX attachments_consult ON attachments(consult_id);

CREATE TABLE slides (
    id {{ID}},
    consult_id BIGINT REFERENCES consultations(id),
    file_id BIGINT REFERENCES files(id),
    owner_id BIGINT NOT NULL REFERENCES users(id),
    hospital_id BIGINT REFERENCES hospitals(id),
    filename TEXT NOT NULL,
    filesize BIGINT NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 0,
    format TEXT NOT NULL DEFAULT '',
    viewable INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    width BIGINT NOT NULL DEFAULT 0,
    height BIGINT NOT NULL DEFAULT 0,
    mpp DOUBLE PRECISION NOT NULL DEFAULT 0,
    objective DOUBLE PRECISION NOT NULL DEFAULT 0,
    ranse TEXT NOT NULL DEFAULT 'HE',
    specimen_name TEXT NOT NULL DEFAULT '',
    paraffin_block_name TEXT NOT NULL DEFAULT '',
    barcode TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0,
    source_ip TEXT NOT NULL DEFAULT '',
    slide_source INTEGER NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX slides_consult ON slides(consult_id, sort);

CREATE TABLE charges (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    order_no TEXT NOT NULL,
    total_fen BIGINT NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    charged_by BIGINT REFERENCES users(id),
    charged_at {{TS}},
    refunded_at {{TS}},
    created_at {{TS}} NOT NULL
);
CREATE INDEX charges_consult ON charges(consult_id);

CREATE TABLE charge_lines (
    id {{ID}},
    charge_id BIGINT NOT NULL REFERENCES charges(id),
    item_id BIGINT NOT NULL REFERENCES charge_items(id),
    name TEXT NOT NULL,
    price_fen BIGINT NOT NULL,
    quantity INTEGER NOT NULL,
    unit TEXT NOT NULL DEFAULT ''
);
CREATE INDEX charge_lines_charge ON charge_lines(charge_id);

CREATE TABLE consult_messages (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    content TEXT NOT NULL,
    images {{JSON}} NOT NULL DEFAULT '[]',
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL
);
CREATE INDEX consult_messages_consult ON consult_messages(consult_id, id);

CREATE TABLE case_logs (
    id {{ID}},
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    user_id BIGINT,
    username TEXT NOT NULL DEFAULT '',
    user_name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL,
    from_status TEXT NOT NULL DEFAULT '',
    to_status TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '',
    created_at {{TS}} NOT NULL
);
CREATE INDEX case_logs_consult ON case_logs(consult_id, id);
