-- The user list at 100,000 users, continued (issue 17; PostgreSQL's sort
-- indexes came in 0065). Per sort column an index over the users not
-- deleted in each order of id (the list breaks ties by id descending), so
-- that a page and a deep page's keys walk an index only; the locked tab's
-- count reads its few users by index.
CREATE INDEX users_live_created ON users(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_created_up ON users(created_at, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_name ON users(name, id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_name_up ON users(name, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_username ON users(username, id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_username_up ON users(username, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_work_no ON users(work_no, id) WHERE deleted_at IS NULL;
CREATE INDEX users_live_work_no_up ON users(work_no, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX users_live_locked ON users(locked_until) WHERE deleted_at IS NULL;

-- User counts per status, deleted or not, kept exact by triggers in the
-- transaction that writes the user: the tab counts and the list's total
-- read them instead of counting the users. deleted_at only tells deleted
-- (1970-01-01) from not deleted (NULL).
CREATE TABLE user_tallies (
    status INTEGER NOT NULL,
    deleted_at {{TS}},
    n BIGINT NOT NULL
);
CREATE INDEX user_tallies_key ON user_tallies(status, deleted_at);
INSERT INTO user_tallies (status, deleted_at, n)
    SELECT status, CASE WHEN deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, COUNT(*) FROM users GROUP BY status, CASE WHEN deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
CREATE TRIGGER users_tally_insert AFTER INSERT ON users BEGIN
    INSERT INTO user_tallies (status, deleted_at, n) SELECT NEW.status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0
        WHERE NOT EXISTS (SELECT 1 FROM user_tallies t WHERE t.status IS NEW.status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE user_tallies SET n = n + 1 WHERE status IS NEW.status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER users_tally_delete AFTER DELETE ON users BEGIN
    UPDATE user_tallies SET n = n - 1 WHERE status IS OLD.status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER users_tally_update AFTER UPDATE OF status, deleted_at ON users
WHEN OLD.status IS NOT NEW.status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) BEGIN
    UPDATE user_tallies SET n = n - 1 WHERE status IS OLD.status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
    INSERT INTO user_tallies (status, deleted_at, n) SELECT NEW.status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0
        WHERE NOT EXISTS (SELECT 1 FROM user_tallies t WHERE t.status IS NEW.status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE user_tallies SET n = n + 1 WHERE status IS NEW.status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;

-- The search box (any part of the user name, name, phone or work number)
-- as the case lists read theirs (0030, 0058): a trigram index for texts of
-- three characters or more, and user_grams, the one- and two-character
-- pieces that hold a character beyond ASCII (a surname), lower-cased as
-- LIKE folds them, for shorter ones. Both kept by triggers in the
-- transaction that writes the user.
CREATE VIRTUAL TABLE users_search USING fts5(username, name, phone, work_no,
    content='users', content_rowid='id', tokenize='trigram');
INSERT INTO users_search(users_search) VALUES ('rebuild');
CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_search(rowid, username, name, phone, work_no) VALUES (NEW.id, NEW.username, NEW.name, NEW.phone, NEW.work_no);
END;
CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
    INSERT INTO users_search(users_search, rowid, username, name, phone, work_no) VALUES ('delete', OLD.id, OLD.username, OLD.name, OLD.phone, OLD.work_no);
END;
CREATE TRIGGER users_search_update AFTER UPDATE OF username, name, phone, work_no ON users BEGIN
    INSERT INTO users_search(users_search, rowid, username, name, phone, work_no) VALUES ('delete', OLD.id, OLD.username, OLD.name, OLD.phone, OLD.work_no);
    INSERT INTO users_search(rowid, username, name, phone, work_no) VALUES (NEW.id, NEW.username, NEW.name, NEW.phone, NEW.work_no);
END;

CREATE TABLE user_grams (
    gram TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (gram, user_id)
) WITHOUT ROWID;
-- The grams of each user as its row holds them now: read with user_id = ?
-- by the triggers.
CREATE VIEW user_gram_source AS
SELECT t.user_id, lower(substr(t.s, p.n, k.k)) AS gram
FROM (SELECT id AS user_id, username AS s FROM users
      UNION ALL SELECT id, name FROM users
      UNION ALL SELECT id, phone FROM users
      UNION ALL SELECT id, work_no FROM users) t
JOIN gram_positions p ON p.n <= length(t.s)
JOIN (SELECT 1 AS k UNION ALL SELECT 2) k ON p.n + k.k - 1 <= length(t.s)
WHERE length(CAST(substr(t.s, p.n, k.k) AS BLOB)) > k.k;
INSERT OR IGNORE INTO user_grams (gram, user_id) SELECT gram, user_id FROM user_gram_source ORDER BY gram, user_id;
-- The old grams go before the row changes, the new ones after.
CREATE TRIGGER user_grams_insert AFTER INSERT ON users BEGIN
    INSERT OR IGNORE INTO user_grams (gram, user_id) SELECT gram, user_id FROM user_gram_source WHERE user_id = NEW.id;
END;
CREATE TRIGGER user_grams_delete BEFORE DELETE ON users BEGIN
    DELETE FROM user_grams WHERE user_id = OLD.id AND gram IN (SELECT gram FROM user_gram_source WHERE user_id = OLD.id);
END;
CREATE TRIGGER user_grams_update_old BEFORE UPDATE OF username, name, phone, work_no ON users BEGIN
    DELETE FROM user_grams WHERE user_id = OLD.id AND gram IN (SELECT gram FROM user_gram_source WHERE user_id = OLD.id);
END;
CREATE TRIGGER user_grams_update_new AFTER UPDATE OF username, name, phone, work_no ON users BEGIN
    INSERT OR IGNORE INTO user_grams (gram, user_id) SELECT gram, user_id FROM user_gram_source WHERE user_id = NEW.id;
END;
ANALYZE users;
ANALYZE user_grams;
