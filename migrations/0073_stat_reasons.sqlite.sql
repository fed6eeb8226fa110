-- Daily rollups of the free-text reasons (issue 14): the diagnosis-quality
-- screen's amendment reasons (the detail of a diagnosis_amend log line) and
-- the HE screen's grade-D reasons (a D judgement's reason) were read live,
-- each row joined to its case (410-550 ms and ~330 ms over three years at
-- 1M cases). stat_reasons keeps them per figure, grain, local day, center,
-- hospital, expert (the case's), library and reason, at the grains of
-- stat_daily (the screens filter by hospital, expert, library and kind), the
-- reason as written (NULL as ''; the live read shows NULL as '' too).
-- Triggers keep it in the transaction that writes the log line or the
-- judgement, and move it with its case (center, hospital, expert, library,
-- deletion); RebuildRollups counts it again set-wise. The definitions of
-- internal/statistics reasons.go, checked against it by
-- TestStatisticsRollups.
CREATE TABLE stat_reasons (
    figure TEXT NOT NULL,
    grain INTEGER NOT NULL,
    day TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    reason TEXT NOT NULL,
    n BIGINT NOT NULL
);
CREATE UNIQUE INDEX stat_reasons_key ON stat_reasons(figure, grain, day, center_id, hospital_id, expert_id, library_id, reason);

CREATE VIEW stat_reason_rows AS
    SELECT 'case_logs' AS src, l.id AS src_id, l.consult_id, 'amend_reason' AS figure, l.created_at AS at, COALESCE(CAST(l.detail AS TEXT), '') AS reason
        FROM case_logs l WHERE l.action = 'diagnosis_amend' AND l.created_at IS NOT NULL
    UNION ALL SELECT 'slide_judgements', sj.id, sj.consult_id, 'grade_d_reason', sj.created_at, COALESCE(CAST(sj.reason AS TEXT), '')
        FROM slide_judgements sj WHERE sj.grade = 'D' AND sj.created_at IS NOT NULL;

-- Driven by the reasons (few, filtered) with each case looked up by its key:
-- CROSS JOIN keeps that order whatever the planner's statistics say, and
-- NOT INDEXED keeps the lookup by rowid (with the statistics of an empty
-- database, c.deleted_at IS NULL made a scan of the partial index
-- consultations_turnaround look cheaper).
CREATE VIEW stat_reason_figures AS
    SELECT x.src, x.src_id, x.consult_id AS id, x.figure, x.at, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id,
            COALESCE(c.library_id, 0) AS library_id, x.reason, 1 AS n
        FROM stat_reason_rows x CROSS JOIN consultations c NOT INDEXED ON c.id = x.consult_id WHERE c.deleted_at IS NULL;

INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
    SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, SUM(n)
    FROM stat_reason_figures CROSS JOIN stat_grains WHERE 1 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8;

-- A reason leaves its days before its row (or its case) changes or goes,
-- and joins them after it is written or changed.
CREATE TRIGGER case_logs_reason_leave BEFORE DELETE ON case_logs WHEN OLD.action = 'diagnosis_amend' BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_reason_move BEFORE UPDATE ON case_logs WHEN (OLD.action = 'diagnosis_amend' OR NEW.action = 'diagnosis_amend') AND (OLD.action IS NOT NEW.action OR OLD.created_at IS NOT NEW.created_at OR OLD.detail IS NOT NEW.detail OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_reason_join AFTER INSERT ON case_logs WHEN NEW.action = 'diagnosis_amend' BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_reason_moved AFTER UPDATE ON case_logs WHEN (OLD.action = 'diagnosis_amend' OR NEW.action = 'diagnosis_amend') AND (OLD.action IS NOT NEW.action OR OLD.created_at IS NOT NEW.created_at OR OLD.detail IS NOT NEW.detail OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER slide_judgements_reason_leave BEFORE DELETE ON slide_judgements WHEN OLD.grade = 'D' BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'slide_judgements' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER slide_judgements_reason_move BEFORE UPDATE ON slide_judgements WHEN (OLD.grade = 'D' OR NEW.grade = 'D') AND (OLD.grade IS NOT NEW.grade OR OLD.created_at IS NOT NEW.created_at OR OLD.reason IS NOT NEW.reason OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'slide_judgements' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER slide_judgements_reason_join AFTER INSERT ON slide_judgements WHEN NEW.grade = 'D' BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'slide_judgements' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER slide_judgements_reason_moved AFTER UPDATE ON slide_judgements WHEN (OLD.grade = 'D' OR NEW.grade = 'D') AND (OLD.grade IS NOT NEW.grade OR OLD.created_at IS NOT NEW.created_at OR OLD.reason IS NOT NEW.reason OR OLD.consult_id IS NOT NEW.consult_id) BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE src = 'slide_judgements' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
-- A case's reasons move with it.
CREATE TRIGGER consultations_reason_leave BEFORE DELETE ON consultations BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_reason_move BEFORE UPDATE ON consultations WHEN OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, -n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_reason_moved AFTER UPDATE ON consultations WHEN OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id OR OLD.deleted_at IS NOT NEW.deleted_at BEGIN
    INSERT INTO stat_reasons (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, reason, n
        FROM stat_reason_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id, reason) DO UPDATE SET n = n + excluded.n;
END;
