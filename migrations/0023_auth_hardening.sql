-- Sign-in hardening: wrong passwords slow down the client that sends them
-- (per user name and address) instead of locking the account; the screen
-- lock and an administrator's password reset are kept on the server; captcha
-- challenges are signed, not stored: only the ones used are recorded, so
-- that each is answered once across processes.
CREATE TABLE login_failures (
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    failures INTEGER NOT NULL,
    blocked_until {{TS}},
    updated_at {{TS}} NOT NULL,
    PRIMARY KEY (username, ip)
);
CREATE INDEX login_failures_updated ON login_failures(updated_at);

ALTER TABLE sessions ADD COLUMN locked_at {{TS}};
ALTER TABLE sessions ADD COLUMN password_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;

DROP TABLE captchas;
CREATE TABLE captcha_uses (
    nonce TEXT PRIMARY KEY,
    expires_at {{TS}} NOT NULL
);
CREATE INDEX captcha_uses_expires ON captcha_uses(expires_at);
