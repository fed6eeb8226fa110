-- The user list's search by a number (issue 17): a text of three digits
-- or more (a phone, a work number) is the start of some suffix of the
-- user name, name, phone or work number that starts with a digit, so it
-- reads a range of user_suffixes instead of the trigram index of 0065.
-- Every phone holds the trigrams 139, 390 and 900 at 100,000 users: the
-- trigram search of 1390004 intersected those and rechecked its 10,000
-- users, twice (page and count). Digits have no case, so the range finds
-- exactly the users of ILIKE '%text%'. Kept by a trigger in the
-- transaction that writes the user, as user_grams (0076).
CREATE TABLE user_suffixes (
    suffix TEXT COLLATE "C" NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (suffix, user_id)
);
CREATE FUNCTION user_suffixes_of(u users) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT substr(t.s, p.n)
    FROM unnest(ARRAY[u.username, u.name, u.phone, u.work_no]) t(s), generate_series(1, length(t.s)) p(n)
    WHERE ascii(substr(t.s, p.n, 1)) BETWEEN 48 AND 57
$$;
INSERT INTO user_suffixes (suffix, user_id) SELECT s, u.id FROM users u, user_suffixes_of(u) s;
CREATE FUNCTION user_suffixes_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM user_suffixes WHERE user_id = OLD.id AND suffix IN (SELECT user_suffixes_of(OLD));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO user_suffixes (suffix, user_id) SELECT s, NEW.id FROM user_suffixes_of(NEW) s;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER user_suffixes_write AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION user_suffixes_sync();
CREATE TRIGGER user_suffixes_update AFTER UPDATE OF username, name, phone, work_no ON users FOR EACH ROW
    WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name OR OLD.phone IS DISTINCT FROM NEW.phone
          OR OLD.work_no IS DISTINCT FROM NEW.work_no)
    EXECUTE FUNCTION user_suffixes_sync();
ANALYZE user_suffixes;
