-- Live events are replayed by position (see 0044_event_position.postgres.sql).
-- SQLite writes one transaction at a time, so ids already follow commit
-- order: the position is the id.
ALTER TABLE notifications ADD COLUMN pos INTEGER GENERATED ALWAYS AS (id) VIRTUAL;
CREATE INDEX notifications_pos ON notifications(pos);
CREATE INDEX notifications_user_pos ON notifications(user_id, pos);
