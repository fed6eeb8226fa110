-- Special-exam turnaround rollups (issue 14): the quality screen's special
-- exams (an advice, from its creation to its result: count, median and
-- 90th percentile) were read live, every advice done in the period joined
-- to its case (500-900 ms over three years at 1M cases). They are a third
-- span of stat_turnaround now, 'advice', in the same buckets (tenths of an
-- hour, per local month of the result, center, hospital, expert (the
-- case's), library, at the four grains), so the same percentile reader
-- serves them and the yearly rollups of migration 0071 (kept by triggers on
-- stat_turnaround, whatever the span) hold them too. Triggers keep them in
-- the transaction that writes the advice, and move them with their case
-- (center, hospital, expert, library, deletion); RebuildRollups counts them
-- again set-wise. The definitions of internal/statistics turnaround.go,
-- checked against it by TestStatisticsRollups.
CREATE VIEW stat_advice_turnarounds AS
    SELECT a.id, a.consult_id, 'advice' AS span, a.done_at AS at,
            ROUND((FLOOR(EXTRACT(EPOCH FROM a.done_at)) - FLOOR(EXTRACT(EPOCH FROM a.created_at))) / 360)::BIGINT AS tenths,
            COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id
        FROM advices a CROSS JOIN consultations c WHERE c.id = a.consult_id AND a.done_at IS NOT NULL AND a.created_at IS NOT NULL AND c.deleted_at IS NULL;

INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, grain, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => (SELECT offset_minutes FROM stat_zone)), 'YYYY-MM'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, COUNT(*)
    FROM stat_advice_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8;

-- An advice's turnaround leaves its month before the advice (or its case)
-- changes or goes, and joins it after it is written or changed (rows
-- locked in key order).
CREATE FUNCTION stat_advice_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
    sign INTEGER := 1;
    rid BIGINT;
BEGIN
    IF TG_WHEN = 'BEFORE' THEN
        sign := -1;
        rid := OLD.id;
    ELSE
        rid := NEW.id;
    END IF;
    IF TG_TABLE_NAME = 'consultations' THEN
        INSERT INTO stat_turnaround AS s (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
            SELECT x.span, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM'), x.center_id,
                CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, x.tenths, sign * COUNT(*)
            FROM stat_advice_turnarounds x CROSS JOIN stat_grains g WHERE x.consult_id = rid
            GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
            ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    ELSE
        INSERT INTO stat_turnaround AS s (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
            SELECT x.span, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM'), x.center_id,
                CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, x.tenths, sign * COUNT(*)
            FROM stat_advice_turnarounds x CROSS JOIN stat_grains g WHERE x.id = rid
            GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
            ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER advices_turnaround_leave BEFORE DELETE ON advices FOR EACH ROW WHEN (OLD.done_at IS NOT NULL) EXECUTE FUNCTION stat_advice_bump();
CREATE TRIGGER advices_turnaround_move BEFORE UPDATE ON advices FOR EACH ROW WHEN ((OLD.done_at IS NOT NULL OR NEW.done_at IS NOT NULL) AND (OLD.done_at IS DISTINCT FROM NEW.done_at OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.consult_id IS DISTINCT FROM NEW.consult_id)) EXECUTE FUNCTION stat_advice_bump();
CREATE TRIGGER advices_turnaround_join AFTER INSERT ON advices FOR EACH ROW WHEN (NEW.done_at IS NOT NULL) EXECUTE FUNCTION stat_advice_bump();
CREATE TRIGGER advices_turnaround_moved AFTER UPDATE ON advices FOR EACH ROW WHEN ((OLD.done_at IS NOT NULL OR NEW.done_at IS NOT NULL) AND (OLD.done_at IS DISTINCT FROM NEW.done_at OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.consult_id IS DISTINCT FROM NEW.consult_id)) EXECUTE FUNCTION stat_advice_bump();
-- A case's special exams move with it (the same function, by the case's id).
CREATE TRIGGER consultations_advice_leave BEFORE DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION stat_advice_bump();
CREATE TRIGGER consultations_advice_move BEFORE UPDATE ON consultations FOR EACH ROW WHEN (OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.library_id IS DISTINCT FROM NEW.library_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) EXECUTE FUNCTION stat_advice_bump();
CREATE TRIGGER consultations_advice_moved AFTER UPDATE ON consultations FOR EACH ROW WHEN (OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.library_id IS DISTINCT FROM NEW.library_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) EXECUTE FUNCTION stat_advice_bump();
