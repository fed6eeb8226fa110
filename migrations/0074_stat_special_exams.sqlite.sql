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
-- Driven by the advices with each case looked up by its key: CROSS JOIN
-- keeps that order whatever the planner's statistics say, and NOT INDEXED
-- the lookup by rowid (commit 32f5661: with the statistics of an empty
-- database c.deleted_at IS NULL made a scan of the partial index
-- consultations_turnaround look cheaper).
CREATE VIEW stat_advice_turnarounds AS
    SELECT a.id, a.consult_id, 'advice' AS span, a.done_at AS at, CAST(ROUND((unixepoch(a.done_at) - unixepoch(a.created_at)) / 360.0) AS INTEGER) AS tenths,
            COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id
        FROM advices a CROSS JOIN consultations c NOT INDEXED ON c.id = a.consult_id WHERE a.done_at IS NOT NULL AND a.created_at IS NOT NULL AND c.deleted_at IS NULL;

INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, COUNT(*)
    FROM stat_advice_turnarounds CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8;

-- An advice's turnaround leaves its month before the advice (or its case)
-- changes or goes, and joins it after it is written or changed.
CREATE TRIGGER advices_turnaround_leave BEFORE DELETE ON advices WHEN OLD.done_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER advices_turnaround_move BEFORE UPDATE ON advices WHEN (OLD.done_at IS NOT NULL OR NEW.done_at IS NOT NULL) AND (OLD.done_at IS NOT NEW.done_at OR OLD.created_at IS NOT NEW.created_at OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER advices_turnaround_join AFTER INSERT ON advices WHEN NEW.done_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, 1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER advices_turnaround_moved AFTER UPDATE ON advices WHEN (OLD.done_at IS NOT NULL OR NEW.done_at IS NOT NULL) AND (OLD.done_at IS NOT NEW.done_at OR OLD.created_at IS NOT NEW.created_at OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, 1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
-- A case's special exams move with it.
CREATE TRIGGER consultations_advice_leave BEFORE DELETE ON consultations BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE consult_id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_advice_move BEFORE UPDATE ON consultations WHEN OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE consult_id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_advice_moved AFTER UPDATE ON consultations WHEN OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, 1
        FROM stat_advice_turnarounds CROSS JOIN stat_grains WHERE consult_id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
