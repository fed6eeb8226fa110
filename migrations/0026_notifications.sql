-- The message centre (spec 1 §2 /message/list, /admin/message-manage; spec 2
-- §3 Notices, §4 Notice unread/read). A notification is one user's: what
-- happened (a message key and its parameters, rendered in the reader's
-- language when read), where to act (link), and whether it was read. Its id
-- is the id of the live event that carries it. batch groups the rows one
-- change wrote, so that every server process can fetch exactly those rows
-- when the change is announced.
CREATE TABLE notices (
    id {{ID}},
    kind TEXT NOT NULL,
    level TEXT NOT NULL,
    target TEXT NOT NULL,
    target_ids TEXT NOT NULL DEFAULT '',
    target_role TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    center_id BIGINT REFERENCES centers(id),
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at {{TS}} NOT NULL,
    recipients INTEGER NOT NULL DEFAULT 0,
    withdrawn_at {{TS}},
    withdrawn_by BIGINT REFERENCES users(id)
);
CREATE INDEX notices_created ON notices(created_at, id);

CREATE TABLE notifications (
    id {{ID}},
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    level TEXT NOT NULL DEFAULT 'normal',
    event TEXT NOT NULL,
    consult_id BIGINT REFERENCES consultations(id),
    notice_id BIGINT REFERENCES notices(id),
    link TEXT NOT NULL DEFAULT '',
    msg_key TEXT NOT NULL,
    params TEXT NOT NULL DEFAULT '{}',
    actor_id BIGINT REFERENCES users(id),
    batch TEXT NOT NULL,
    created_at {{TS}} NOT NULL,
    read_at {{TS}},
    acked_at {{TS}}
);
CREATE INDEX notifications_user ON notifications(user_id, id);
CREATE INDEX notifications_unread ON notifications(user_id, read_at);
CREATE INDEX notifications_batch ON notifications(batch);
CREATE INDEX notifications_notice ON notifications(notice_id, user_id);

-- A case's reminder and deadline are announced once each: the scheduler
-- inserts its key before it writes the notifications, in one transaction.
CREATE TABLE timeout_notices (
    consult_id BIGINT NOT NULL REFERENCES consultations(id),
    kind TEXT NOT NULL,
    due_at {{TS}} NOT NULL,
    sent_at {{TS}} NOT NULL,
    PRIMARY KEY (consult_id, kind, due_at)
);


-- A browser's EventSource cannot send the bearer token: it opens the stream
-- with a ticket, asked for with the token just before, good once and for a
-- minute. Only the hash is kept.
CREATE TABLE stream_tickets (
    token_hash TEXT PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES sessions(id),
    lang TEXT NOT NULL,
    expires_at {{TS}} NOT NULL
);
CREATE INDEX stream_tickets_expires ON stream_tickets(expires_at);
