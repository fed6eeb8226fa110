-- A fourth grain of the rollups (issue 14): per center and library
-- (hospital and expert -1), for the screens that filter or count by case
-- kind or library (quality and timeliness), which read every column's
-- grain before: over three years that is a million rows a figure, this
-- grain a few thousand. The grains are now 0 every column; 1 per center
-- and hospital; 2 per center and expert; 3 per center and library. The
-- triggers of migrations 0046 and 0048 write the new grain too, and it is
-- filled from grain 0.
DROP VIEW stat_grains;
CREATE VIEW stat_grains AS SELECT 0 AS grain UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, 3, day, center_id, -1, -1, library_id, SUM(n) FROM stat_daily WHERE grain = 0 GROUP BY figure, day, center_id, library_id HAVING SUM(n) <> 0;
INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, 3, month, center_id, -1, -1, library_id, tenths, SUM(n) FROM stat_turnaround WHERE grain = 0 GROUP BY span, month, center_id, library_id, tenths HAVING SUM(n) <> 0;

-- The triggers again, each writing the four grains.
DROP TRIGGER consultations_stat_insert;
CREATE TRIGGER consultations_stat_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, 1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_delete;
CREATE TRIGGER consultations_stat_delete BEFORE DELETE ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_leave;
CREATE TRIGGER consultations_stat_leave BEFORE UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_join;
CREATE TRIGGER consultations_stat_join AFTER UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, 1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER diagnoses_stat_insert;
CREATE TRIGGER diagnoses_stat_insert AFTER INSERT ON diagnoses WHEN NEW.type = 0 AND NEW.version = 1 BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', NEW.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain IN (0, 3) THEN COALESCE(c.library_id, 0) ELSE -1 END, 1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = NEW.consult_id AND c.deleted_at IS NULL
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER diagnoses_stat_delete;
CREATE TRIGGER diagnoses_stat_delete AFTER DELETE ON diagnoses WHEN OLD.type = 0 AND OLD.version = 1 BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', OLD.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain IN (0, 3) THEN COALESCE(c.library_id, 0) ELSE -1 END, -1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = OLD.consult_id AND c.deleted_at IS NULL
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER diagnoses_stat_update;
CREATE TRIGGER diagnoses_stat_update AFTER UPDATE ON diagnoses WHEN OLD.type IS NOT NEW.type OR OLD.version IS NOT NEW.version OR OLD.created_at IS NOT NEW.created_at OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', OLD.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain IN (0, 3) THEN COALESCE(c.library_id, 0) ELSE -1 END, -1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = OLD.consult_id AND c.deleted_at IS NULL AND OLD.type = 0 AND OLD.version = 1
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', NEW.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain IN (0, 3) THEN COALESCE(c.library_id, 0) ELSE -1 END, 1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = NEW.consult_id AND c.deleted_at IS NULL AND NEW.type = 0 AND NEW.version = 1
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_turnaround_insert;
CREATE TRIGGER consultations_turnaround_insert AFTER INSERT ON consultations WHEN NEW.published_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, 1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_turnaround_delete;
CREATE TRIGGER consultations_turnaround_delete BEFORE DELETE ON consultations WHEN OLD.published_at IS NOT NULL BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_turnaround_leave;
CREATE TRIGGER consultations_turnaround_leave BEFORE UPDATE ON consultations WHEN (OLD.published_at IS NOT NULL OR NEW.published_at IS NOT NULL) AND (OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, -1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_turnaround_join;
CREATE TRIGGER consultations_turnaround_join AFTER UPDATE ON consultations WHEN (OLD.published_at IS NOT NULL OR NEW.published_at IS NOT NULL) AND (OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id) BEGIN
    INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT span, grain, strftime('%Y-%m', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, tenths, 1
        FROM stat_case_turnarounds CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = n + excluded.n;
END;
