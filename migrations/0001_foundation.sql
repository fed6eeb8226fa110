-- Organisations, users, sessions, audit and settings.

CREATE TABLE centers (
    id {{ID}},
    name TEXT NOT NULL,
    code TEXT NOT NULL DEFAULT '',
    parent_id BIGINT REFERENCES centers(id),
    address TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    contact TEXT NOT NULL DEFAULT '',
    remark TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 1,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX centers_parent ON centers(parent_id);

CREATE TABLE hospitals (
    id {{ID}},
    name TEXT NOT NULL,
    abbreviation TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL DEFAULT '',
    public_ip TEXT NOT NULL DEFAULT '',
    port INTEGER NOT NULL DEFAULT 0,
    address TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    contact TEXT NOT NULL DEFAULT '',
    storage_mode INTEGER NOT NULL DEFAULT 0,
    expert_select INTEGER NOT NULL DEFAULT 1,
    default_expert_id BIGINT,
    site_info {{JSON}} NOT NULL DEFAULT '{}',
    status INTEGER NOT NULL DEFAULT 1,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);

CREATE TABLE hospital_centers (
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    center_id BIGINT NOT NULL REFERENCES centers(id),
    PRIMARY KEY (hospital_id, center_id)
);
CREATE INDEX hospital_centers_center ON hospital_centers(center_id);

CREATE TABLE users (
    id {{ID}},
    username TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    work_no TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 1,
    failed_logins INTEGER NOT NULL DEFAULT 0,
    locked_until {{TS}},
    last_login_at {{TS}},
    password_changed_at {{TS}},
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX users_username ON users(username);
CREATE INDEX users_created ON users(created_at);
CREATE INDEX users_name ON users(name);
CREATE INDEX users_status ON users(status, id);

CREATE TABLE user_roles (
    user_id BIGINT NOT NULL REFERENCES users(id),
    role TEXT NOT NULL,
    config {{JSON}} NOT NULL DEFAULT '{}',
    PRIMARY KEY (user_id, role)
);
CREATE INDEX user_roles_role ON user_roles(role, user_id);

CREATE TABLE user_centers (
    user_id BIGINT NOT NULL REFERENCES users(id),
    center_id BIGINT NOT NULL REFERENCES centers(id),
    PRIMARY KEY (user_id, center_id)
);
CREATE INDEX user_centers_center ON user_centers(center_id, user_id);

CREATE TABLE user_hospitals (
    user_id BIGINT NOT NULL REFERENCES users(id),
    hospital_id BIGINT NOT NULL REFERENCES hospitals(id),
    PRIMARY KEY (user_id, hospital_id)
);
CREATE INDEX user_hospitals_hospital ON user_hospitals(hospital_id, user_id);

CREATE TABLE sessions (
    id {{ID}},
    token_hash TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    ip TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '',
    created_at {{TS}} NOT NULL,
    last_seen_at {{TS}} NOT NULL,
    expires_at {{TS}} NOT NULL,
    revoked_at {{TS}}
);
CREATE UNIQUE INDEX sessions_token ON sessions(token_hash);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE captchas (
    key TEXT PRIMARY KEY,
    answer_hash TEXT NOT NULL,
    expires_at {{TS}} NOT NULL
);

CREATE TABLE audit_logs (
    id {{ID}},
    created_at {{TS}} NOT NULL,
    user_id BIGINT,
    username TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL,
    object_type TEXT NOT NULL DEFAULT '',
    object_id TEXT NOT NULL DEFAULT '',
    before_data {{JSON}},
    after_data {{JSON}},
    ip TEXT NOT NULL DEFAULT '',
    outcome TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_logs_created ON audit_logs(created_at);
CREATE INDEX audit_logs_user ON audit_logs(user_id, created_at);
CREATE INDEX audit_logs_object ON audit_logs(object_type, object_id);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value {{JSON}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
