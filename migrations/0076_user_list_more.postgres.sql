-- The user list at 100,000 users, continued (issue 17; the sort indexes
-- and the trigram index of the search came in 0065). The locked tab's
-- count reads its few users by index.
CREATE INDEX users_live_locked ON users(locked_until) WHERE deleted_at IS NULL;

-- User counts per status, deleted or not, kept exact by a trigger in the
-- transaction that writes the user: the tab counts and the list's total
-- read them instead of counting the users. deleted_at only tells deleted
-- (1970-01-01) from not deleted (NULL).
CREATE TABLE user_tallies (
    status INTEGER NOT NULL,
    deleted_at {{TS}},
    n BIGINT NOT NULL
);
CREATE UNIQUE INDEX user_tallies_key ON user_tallies(status, deleted_at) NULLS NOT DISTINCT;
INSERT INTO user_tallies (status, deleted_at, n)
    SELECT status, CASE WHEN deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, COUNT(*) FROM users GROUP BY status, CASE WHEN deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END;

-- bump adds d to the tally of user u's key.
CREATE FUNCTION user_tally_bump(u users, d BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO user_tallies AS t (status, deleted_at, n) VALUES (u.status, CASE WHEN u.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, d)
        ON CONFLICT (status, deleted_at) DO UPDATE SET n = t.n + d;
$$;
-- A user who changes key moves one from the old tally to the new one, the
-- two rows locked in key order (no deadlock between opposite moves).
CREATE FUNCTION user_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_first BOOLEAN := TRUE;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        old_first := ROW(OLD.status, OLD.deleted_at IS NOT NULL) <= ROW(NEW.status, NEW.deleted_at IS NOT NULL);
    END IF;
    IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND old_first) THEN
        PERFORM user_tally_bump(OLD, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM user_tally_bump(NEW, 1);
    END IF;
    IF TG_OP = 'UPDATE' AND NOT old_first THEN
        PERFORM user_tally_bump(OLD, -1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_tally_write AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION user_tally();
CREATE TRIGGER users_tally_update AFTER UPDATE ON users FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION user_tally();

-- One- and two-character texts with a character beyond ASCII (a surname)
-- have no trigram: they read user_grams, the pieces of the searched
-- columns that hold such a character, lower-cased, as consultation_grams
-- (0058), kept by a trigger in the transaction that writes the user.
CREATE TABLE user_grams (
    gram TEXT COLLATE "C" NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (gram, user_id)
);
CREATE FUNCTION user_grams_of(u users) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT lower(substr(t.s, p.n, k.k))
    FROM unnest(ARRAY[u.username, u.name, u.phone, u.work_no]) t(s),
         generate_series(1, length(t.s)) p(n), (VALUES (1), (2)) k(k)
    WHERE p.n + k.k - 1 <= length(t.s) AND octet_length(substr(t.s, p.n, k.k)) > k.k
$$;
INSERT INTO user_grams (gram, user_id) SELECT g, u.id FROM users u, user_grams_of(u) g;
CREATE FUNCTION user_grams_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM user_grams WHERE user_id = OLD.id AND gram IN (SELECT user_grams_of(OLD));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO user_grams (gram, user_id) SELECT g, NEW.id FROM user_grams_of(NEW) g;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER user_grams_write AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION user_grams_sync();
CREATE TRIGGER user_grams_update AFTER UPDATE OF username, name, phone, work_no ON users FOR EACH ROW
    WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name OR OLD.phone IS DISTINCT FROM NEW.phone
          OR OLD.work_no IS DISTINCT FROM NEW.work_no)
    EXECUTE FUNCTION user_grams_sync();
ANALYZE users;
ANALYZE user_grams;
ANALYZE user_tallies;
