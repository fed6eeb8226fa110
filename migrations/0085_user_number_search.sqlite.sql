-- The user list's search by a number (issue 17): a text of three digits
-- or more (a phone, a work number) is the start of some suffix of the
-- user name, name, phone or work number that starts with a digit, so it
-- reads a range of user_suffixes instead of the trigram index of 0076.
-- Every phone holds the trigrams 139, 390 and 900 at 100,000 users: the
-- trigram phrase 1390004 read their position lists (every user's) to find
-- 10,000 users. Digits have no case, so the range finds exactly the users
-- of LIKE '%text%'. Kept by triggers in the transaction that writes the
-- user, as user_grams (0076).
CREATE TABLE user_suffixes (
    suffix TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (suffix, user_id)
) WITHOUT ROWID;
-- The suffixes of each user as its row holds them now: read with
-- user_id = ? by the triggers.
CREATE VIEW user_suffix_source AS
SELECT t.user_id, substr(t.s, p.n) AS suffix
FROM (SELECT id AS user_id, username AS s FROM users
      UNION ALL SELECT id, name FROM users
      UNION ALL SELECT id, phone FROM users
      UNION ALL SELECT id, work_no FROM users) t
JOIN gram_positions p ON p.n <= length(t.s)
WHERE substr(t.s, p.n, 1) BETWEEN '0' AND '9';
INSERT OR IGNORE INTO user_suffixes (suffix, user_id) SELECT suffix, user_id FROM user_suffix_source ORDER BY suffix, user_id;
-- The old suffixes go before the row changes, the new ones after.
CREATE TRIGGER user_suffixes_insert AFTER INSERT ON users BEGIN
    INSERT OR IGNORE INTO user_suffixes (suffix, user_id) SELECT suffix, user_id FROM user_suffix_source WHERE user_id = NEW.id;
END;
CREATE TRIGGER user_suffixes_delete BEFORE DELETE ON users BEGIN
    DELETE FROM user_suffixes WHERE user_id = OLD.id AND suffix IN (SELECT suffix FROM user_suffix_source WHERE user_id = OLD.id);
END;
CREATE TRIGGER user_suffixes_update_old BEFORE UPDATE OF username, name, phone, work_no ON users BEGIN
    DELETE FROM user_suffixes WHERE user_id = OLD.id AND suffix IN (SELECT suffix FROM user_suffix_source WHERE user_id = OLD.id);
END;
CREATE TRIGGER user_suffixes_update_new AFTER UPDATE OF username, name, phone, work_no ON users BEGIN
    INSERT OR IGNORE INTO user_suffixes (suffix, user_id) SELECT suffix, user_id FROM user_suffix_source WHERE user_id = NEW.id;
END;
ANALYZE user_suffixes;
