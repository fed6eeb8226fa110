-- Live events are replayed by a position given at commit, not by id (issue
-- 13). An id comes from a sequence when the row is inserted, so a
-- transaction that took a lower id can commit after one that took a higher
-- id and was already delivered: a stream that reconnected with the higher
-- id as its Last-Event-ID would never see the lower one.
--
-- pos is given at the very end of the transaction by a deferred constraint
-- trigger, under a transaction-scoped advisory lock that is held until the
-- commit completes. The next writer of notifications gets its positions
-- only after that, so positions follow commit order: once a position is
-- visible, every lower one is visible too or will never exist (a rolled
-- back transaction leaves a gap, never a late row). The lock is held for
-- the few statements of this trigger and the commit itself; nothing else
-- waits on it. Existing rows keep their id as their position, so the
-- Last-Event-ID a browser holds from before stays meaningful.
ALTER TABLE notifications ADD COLUMN pos BIGINT;
UPDATE notifications SET pos = id;
CREATE SEQUENCE notification_pos;
SELECT setval('notification_pos', (SELECT COALESCE(MAX(id), 0) + 1 FROM notifications), false);
CREATE UNIQUE INDEX notifications_pos ON notifications(pos);
CREATE INDEX notifications_user_pos ON notifications(user_id, pos);
-- Only rows of a transaction still being committed are without a position.
CREATE INDEX notifications_unpositioned ON notifications(id) WHERE pos IS NULL;

-- The trigger fires once per row at commit; the first call positions every
-- row the transaction wrote (the only rows without a position it can see),
-- the others find theirs done. 2115934834 is the advisory lock key of
-- notification positions.
CREATE FUNCTION notification_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT pos FROM notifications WHERE id = NEW.id) IS NULL THEN
        PERFORM pg_advisory_xact_lock(2115934834);
        UPDATE notifications SET pos = nextval('notification_pos') WHERE pos IS NULL;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER notification_position AFTER INSERT ON notifications
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION notification_position();
