-- Frozen sections (issue 12): attendance groups with their shifts, the duty
-- schedule expanded into sessions (UTC instants), and frozen-section
-- appointments with the turnaround timestamps of the frozen case.
CREATE TABLE attendance_groups (
    id {{ID}},
    center_id BIGINT NOT NULL REFERENCES centers(id),
    name TEXT NOT NULL,
    period_name TEXT NOT NULL,
    office TEXT NOT NULL DEFAULT '',
    version BIGINT NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL,
    deleted_at {{TS}}
);
CREATE INDEX attendance_groups_center ON attendance_groups(center_id);

CREATE TABLE attendance_members (
    group_id BIGINT NOT NULL REFERENCES attendance_groups(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    PRIMARY KEY (group_id, user_id)
);

-- A shift is one to three sessions ("commutes") a day, "HH:MM-HH:MM" joined by commas.
CREATE TABLE attendance_shifts (
    id {{ID}},
    group_id BIGINT NOT NULL REFERENCES attendance_groups(id),
    name TEXT NOT NULL,
    sessions TEXT NOT NULL,
    deleted_at {{TS}}
);
CREATE INDEX attendance_shifts_group ON attendance_shifts(group_id);

CREATE TABLE duty_sessions (
    id {{ID}},
    center_id BIGINT NOT NULL REFERENCES centers(id),
    group_id BIGINT NOT NULL REFERENCES attendance_groups(id),
    shift_id BIGINT NOT NULL REFERENCES attendance_shifts(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    day TEXT NOT NULL,
    starts_at {{TS}} NOT NULL,
    ends_at {{TS}} NOT NULL
);
CREATE INDEX duty_sessions_at ON duty_sessions(center_id, starts_at, ends_at);
CREATE INDEX duty_sessions_group_day ON duty_sessions(group_id, day);

CREATE TABLE frozen_appointments (
    id {{ID}},
    center_id BIGINT NOT NULL REFERENCES centers(id),
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    status INTEGER NOT NULL DEFAULT 99,
    is_recall INTEGER NOT NULL DEFAULT 0,
    is_ignored INTEGER NOT NULL DEFAULT 0,
    patient_name TEXT NOT NULL,
    gender TEXT NOT NULL DEFAULT '',
    age TEXT NOT NULL DEFAULT '',
    operation_at {{TS}} NOT NULL,
    operating_room TEXT NOT NULL DEFAULT '',
    surgeon TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    specimen_site TEXT NOT NULL DEFAULT '',
    clinical_question TEXT NOT NULL DEFAULT '',
    return_reason TEXT NOT NULL DEFAULT '',
    recall_reason TEXT NOT NULL DEFAULT '',
    consultation_id BIGINT REFERENCES consultations(id),
    expert_id BIGINT REFERENCES users(id),
    arrived_at {{TS}},
    assigned_at {{TS}},
    first_open_at {{TS}},
    reported_at {{TS}},
    version BIGINT NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX frozen_appointments_center ON frozen_appointments(center_id, status);
CREATE INDEX frozen_appointments_hospital ON frozen_appointments(hospital_id, status);
CREATE INDEX frozen_appointments_expert ON frozen_appointments(expert_id, reported_at);
