-- The operation log records reads of patient data too (which case, from
-- which browser) and is tamper-evident: every row, once sealed, carries its
-- place in one chain (seq) and sha256(previous hash, its content). The chain
-- head is one row, locked while rows are sealed, so that the processes
-- sharing a database extend a single chain.
ALTER TABLE audit_logs ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_logs ADD COLUMN case_id BIGINT;
ALTER TABLE audit_logs ADD COLUMN seq BIGINT;
ALTER TABLE audit_logs ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_logs ADD COLUMN hash TEXT;
CREATE UNIQUE INDEX audit_logs_seq ON audit_logs(seq);
CREATE INDEX audit_logs_unsealed ON audit_logs(id) WHERE seq IS NULL;
CREATE INDEX audit_logs_case ON audit_logs(case_id, id);

CREATE TABLE audit_chain (
    id INTEGER PRIMARY KEY,
    seq BIGINT NOT NULL,
    hash TEXT NOT NULL
);
INSERT INTO audit_chain (id, seq, hash) VALUES (1, 0, '');
