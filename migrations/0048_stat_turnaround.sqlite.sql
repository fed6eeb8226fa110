-- Turnaround rollups (issue 14): per local month of publication, span,
-- center, hospital, expert and library, the number of published cases per
-- turnaround in tenths of an hour, the precision the screens show. A span
-- is 'submit' (submitted → published, the consultation screen) or
-- 'assign' (assigned → published, the expert screens). A turnaround is the
-- whole seconds between the two instants, rounded half away from zero to
-- tenths of an hour; the same expression is internal/statistics
-- (run.tenths). Rounding keeps the order of the durations, so the
-- nearest-rank median and 90th percentile of the tenths are the tenths of
-- the nearest-rank median and 90th percentile of the durations: a screen
-- sums a few thousand bucket rows instead of reading a million durations.
-- Grains and the local month's offset (stat_zone) are those of stat_daily
-- (migration 0046); the triggers keep it in the writing transaction.
CREATE TABLE stat_turnaround (
    span TEXT NOT NULL,
    grain INTEGER NOT NULL,
    month TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    tenths BIGINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths)
) WITHOUT ROWID;

-- The turnarounds of each published case, with the instant that dates them.
CREATE VIEW stat_case_turnarounds AS
    SELECT id, 'submit' AS span, published_at AS at, CAST(ROUND((unixepoch(published_at) - unixepoch(submitted_at)) / 360.0) AS INTEGER) AS tenths,
        COALESCE(center_id, 0) AS center_id, hospital_id, COALESCE(expert_id, 0) AS expert_id, COALESCE(library_id, 0) AS library_id
        FROM consultations WHERE deleted_at IS NULL AND published_at IS NOT NULL AND submitted_at IS NOT NULL
    UNION ALL SELECT id, 'assign', published_at, CAST(ROUND((unixepoch(published_at) - unixepoch(assigned_at)) / 360.0) AS INTEGER),
        COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND published_at IS NOT NULL AND assigned_at IS NOT NULL;

INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
        CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, COUNT(*)
    FROM stat_case_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

-- A case's old turnarounds leave their months before it changes, its new
-- ones join theirs after.
CREATE TRIGGER consultations_turnaround_insert AFTER INSERT ON consultations WHEN NEW.published_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, 1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_turnaround_delete BEFORE DELETE ON consultations WHEN OLD.published_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, -1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_turnaround_leave BEFORE UPDATE ON consultations WHEN (OLD.published_at IS NOT NULL OR NEW.published_at IS NOT NULL) AND (OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, -1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_turnaround_join AFTER UPDATE ON consultations WHEN (OLD.published_at IS NOT NULL OR NEW.published_at IS NOT NULL) AND (OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, 1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
