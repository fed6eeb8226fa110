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
-- (migration 0046); the trigger keeps it in the writing transaction.
CREATE TABLE stat_turnaround (
    span TEXT NOT NULL,
    grain INTEGER NOT NULL,
    month TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    tenths BIGINT NOT NULL,
    n BIGINT NOT NULL
);
CREATE UNIQUE INDEX stat_turnaround_key ON stat_turnaround(span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) INCLUDE (n);

-- The turnarounds of a published case, with the instant that dates them,
-- and those of every case.
CREATE FUNCTION stat_turnarounds_of(c consultations) RETURNS TABLE (span TEXT, at TIMESTAMPTZ, tenths BIGINT) LANGUAGE sql STABLE AS $$
    SELECT v.s, c.published_at, ROUND((FLOOR(EXTRACT(EPOCH FROM c.published_at)) - FLOOR(EXTRACT(EPOCH FROM v.a))) / 360)::BIGINT
    FROM (VALUES ('submit', c.submitted_at), ('assign', c.assigned_at)) AS v(s, a)
    WHERE v.a IS NOT NULL AND c.published_at IS NOT NULL AND c.deleted_at IS NULL
$$;

CREATE VIEW stat_case_turnarounds AS
    SELECT c.id, t.span, t.at, t.tenths, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id
    FROM consultations c CROSS JOIN LATERAL stat_turnarounds_of(c) t WHERE c.published_at IS NOT NULL AND c.deleted_at IS NULL;

INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, grain, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => (SELECT offset_minutes FROM stat_zone)), 'YYYY-MM'), center_id,
        CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, tenths, COUNT(*)
    FROM stat_case_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

-- A case that changes moves its old turnarounds out of their months and
-- its new ones in, in one statement, rows locked in key order (as
-- stat_daily_bump).
CREATE FUNCTION stat_turnaround_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_turnaround AS s (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT x.span, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM'), x.center_id,
            CASE WHEN g.grain = 2 THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE x.expert_id END, CASE WHEN g.grain = 0 THEN x.library_id ELSE -1 END, x.tenths, SUM(x.d)
        FROM (
            SELECT t.span, t.at, t.tenths, COALESCE(OLD.center_id, 0) AS center_id, OLD.hospital_id AS hospital_id, COALESCE(OLD.expert_id, 0) AS expert_id, COALESCE(OLD.library_id, 0) AS library_id, -1 AS d
                FROM stat_turnarounds_of(OLD) t WHERE TG_OP <> 'INSERT'
            UNION ALL
            SELECT t.span, t.at, t.tenths, COALESCE(NEW.center_id, 0), NEW.hospital_id, COALESCE(NEW.expert_id, 0), COALESCE(NEW.library_id, 0), 1
                FROM stat_turnarounds_of(NEW) t WHERE TG_OP <> 'DELETE'
        ) x CROSS JOIN stat_grains g
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(x.d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER consultations_turnaround_insert AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION stat_turnaround_bump();
CREATE TRIGGER consultations_turnaround_update AFTER UPDATE ON consultations FOR EACH ROW WHEN ((OLD.published_at IS NOT NULL OR NEW.published_at IS NOT NULL) AND (OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.assigned_at IS DISTINCT FROM NEW.assigned_at OR OLD.published_at IS DISTINCT FROM NEW.published_at OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.library_id IS DISTINCT FROM NEW.library_id)) EXECUTE FUNCTION stat_turnaround_bump();
