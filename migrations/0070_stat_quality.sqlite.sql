-- Daily rollups of the frozen sections and supplementary reports (issue 14):
-- the quality screen's frozen timeliness (reported within 30 minutes of the
-- specimen's arrival, of those arrived and reported) and supplementary
-- reports, and the diagnosis screen's frozen-paraffin concordance
-- (concordant, judged, deferred) were read live, every frozen section and
-- supplement joined to its case, over three years at 1M cases the slowest
-- reads of those screens. They are activity rows of migration 0059 now: a
-- frozen section's figures count under its own expert (as the screens'
-- expert filter reads them, 0 for none), a supplement under the case's
-- expert; triggers keep them in the transaction that writes the row, and
-- the case's triggers (which read the same views) move them with the case.
-- The definitions of internal/statistics quality_figures.go, checked
-- against it by TestStatisticsRollups.
-- The views again with them (the triggers of 0059 read them by name when
-- they run).
DROP VIEW stat_case_figures;
DROP VIEW stat_activity_figures;
DROP VIEW stat_activity;
CREATE VIEW stat_activity AS
    SELECT 'case_logs' AS src, l.id AS src_id, l.consult_id, CASE WHEN l.action IN ('expert_return', 'return_to_site') THEN 'returned' WHEN l.action = 'recall_agree' THEN 'recalled' WHEN l.action = 'counter_audit' THEN 'counter_audit' ELSE 'amended' END AS figure,
            l.created_at AS at, CAST(NULL AS BIGINT) AS author, CAST(1 AS BIGINT) AS n
        FROM case_logs l WHERE l.action IN ('expert_return', 'return_to_site', 'recall_agree', 'counter_audit', 'diagnosis_amend')
    UNION ALL SELECT 'case_logs', l.id, l.consult_id, CASE WHEN l.action = 'expert_return' THEN 'expert_returned' WHEN l.action = 'expert_referral' THEN 'referred' ELSE 'reviewed' END,
            l.created_at, COALESCE(l.user_id, 0), 1
        FROM case_logs l WHERE l.action IN ('expert_return', 'expert_referral', 'review_approve', 'reviewreturn', 'append_approve', 'append_reviewreturn')
    UNION ALL SELECT 'case_logs', l.id, l.consult_id, 'case_reviewed', l.created_at, NULL, 1
        FROM case_logs l WHERE l.action IN ('review_approve', 'reviewreturn', 'append_approve', 'append_reviewreturn')
    UNION ALL SELECT 'case_logs', l.id, l.consult_id, 'review_disagreed', l.created_at, NULL, 1
        FROM case_logs l WHERE l.action IN ('reviewreturn', 'append_reviewreturn')
    UNION ALL SELECT 'charges', ch.id, ch.consult_id, 'charged', ch.charged_at, NULL, ch.total_fen FROM charges ch WHERE ch.charged_at IS NOT NULL
    UNION ALL SELECT 'charges', ch.id, ch.consult_id, 'refunded', ch.refunded_at, NULL, ch.total_fen FROM charges ch WHERE ch.refunded_at IS NOT NULL
    UNION ALL SELECT 'invitations', i.id, i.consult_id, 'invite_sent', i.created_at, i.inviter_id, 1 FROM invitations i
    UNION ALL SELECT 'invitations', i.id, i.consult_id, 'invite_answered', i.replied_at, i.invitee_id, 1 FROM invitations i WHERE i.replied_at IS NOT NULL
    UNION ALL SELECT 'slide_judgements', sj.id, sj.consult_id, 'slide_grade_' || sj.grade, sj.created_at, NULL, 1 FROM slide_judgements sj WHERE sj.grade IN ('A', 'B', 'C', 'D')
    UNION ALL SELECT 'frozen_appointments', fa.id, fa.consultation_id, 'frozen_reported', fa.reported_at, COALESCE(fa.expert_id, 0), 1 FROM frozen_appointments fa WHERE fa.arrived_at IS NOT NULL AND fa.reported_at IS NOT NULL
    UNION ALL SELECT 'frozen_appointments', fa.id, fa.consultation_id, 'frozen_in_time', fa.reported_at, COALESCE(fa.expert_id, 0), 1 FROM frozen_appointments fa WHERE fa.arrived_at IS NOT NULL AND fa.reported_at IS NOT NULL AND ((julianday(fa.reported_at) - julianday(fa.arrived_at)) * 86400.0) <= 1800
    UNION ALL SELECT 'frozen_appointments', fa.id, fa.consultation_id, 'concordant', fa.concordance_at, COALESCE(fa.expert_id, 0), 1 FROM frozen_appointments fa WHERE fa.concordance_at IS NOT NULL AND fa.concordance = 'concordant'
    UNION ALL SELECT 'frozen_appointments', fa.id, fa.consultation_id, 'concordance_judged', fa.concordance_at, COALESCE(fa.expert_id, 0), 1 FROM frozen_appointments fa WHERE fa.concordance_at IS NOT NULL AND fa.concordance IN ('concordant', 'discordant')
    UNION ALL SELECT 'frozen_appointments', fa.id, fa.consultation_id, 'concordance_deferred', fa.concordance_at, COALESCE(fa.expert_id, 0), 1 FROM frozen_appointments fa WHERE fa.concordance_at IS NOT NULL AND fa.concordance = 'deferred'
    UNION ALL SELECT 'diagnoses', d.id, d.consult_id, 'supplemented', d.published_at, NULL, 1 FROM diagnoses d WHERE d.type = 1 AND d.published_at IS NOT NULL;

-- Driven by the activity with each case looked up by its key: CROSS JOIN
-- keeps that order whatever the planner's statistics say, and NOT INDEXED
-- the lookup by rowid (with the statistics of an empty database, as after
-- the migrations or during a bulk load, c.deleted_at IS NULL made a scan of
-- the partial index consultations_turnaround look cheaper: every activity
-- write scanned the cases, and a rebuild at 1M never finished).
CREATE VIEW stat_activity_figures AS
    SELECT a.src, a.src_id, a.consult_id AS id, a.figure, a.at, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(a.author, c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id, a.n
    FROM stat_activity a CROSS JOIN consultations c NOT INDEXED ON c.id = a.consult_id WHERE c.deleted_at IS NULL;

CREATE VIEW stat_case_figures AS
    SELECT id, 'registered' AS figure, created_at AS at, COALESCE(center_id, 0) AS center_id, hospital_id, COALESCE(expert_id, 0) AS expert_id, COALESCE(library_id, 0) AS library_id, 1 AS n
        FROM consultations WHERE deleted_at IS NULL AND created_at IS NOT NULL
    UNION ALL SELECT id, 'submitted', submitted_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND submitted_at IS NOT NULL
    UNION ALL SELECT id, 'assigned', assigned_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND assigned_at IS NOT NULL
    UNION ALL SELECT id, 'published', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND published_at IS NOT NULL
    UNION ALL SELECT id, 'timed_out', timeout_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND (published_at IS NULL OR published_at > timeout_at)
    UNION ALL SELECT id, 'in_time', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND published_at <= timeout_at
    UNION ALL SELECT id, 'with_deadline', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND published_at IS NOT NULL
    UNION ALL SELECT id, 'in_progress', assigned_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0), 1
        FROM consultations WHERE deleted_at IS NULL AND assigned_at IS NOT NULL AND published_at IS NULL AND status IN (1, 2)
    UNION ALL SELECT c.id, 'diagnosed', d.created_at, COALESCE(c.center_id, 0), c.hospital_id, COALESCE(c.expert_id, 0), COALESCE(c.library_id, 0), 1
        FROM consultations c JOIN diagnoses d ON d.consult_id = c.id WHERE c.deleted_at IS NULL AND d.type = 0 AND d.version = 1
    UNION ALL SELECT id, figure, at, center_id, hospital_id, expert_id, library_id, n FROM stat_activity_figures;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, SUM(n)
    FROM stat_activity_figures CROSS JOIN stat_grains WHERE src IN ('frozen_appointments', 'diagnoses') GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7;

-- A case's triggers read its frozen sections by their case.
CREATE INDEX frozen_appointments_consultation ON frozen_appointments(consultation_id);

-- A frozen section or a supplement leaves its days before it changes or
-- goes, and joins them after it is written or changed.
CREATE TRIGGER frozen_appointments_stat_leave BEFORE DELETE ON frozen_appointments BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'frozen_appointments' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER frozen_appointments_stat_move BEFORE UPDATE ON frozen_appointments WHEN OLD.consultation_id IS NOT NEW.consultation_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.arrived_at IS NOT NEW.arrived_at OR OLD.reported_at IS NOT NEW.reported_at OR OLD.concordance IS NOT NEW.concordance OR OLD.concordance_at IS NOT NEW.concordance_at BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'frozen_appointments' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER frozen_appointments_stat_join AFTER INSERT ON frozen_appointments BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'frozen_appointments' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER frozen_appointments_stat_moved AFTER UPDATE ON frozen_appointments WHEN OLD.consultation_id IS NOT NEW.consultation_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.arrived_at IS NOT NEW.arrived_at OR OLD.reported_at IS NOT NEW.reported_at OR OLD.concordance IS NOT NEW.concordance OR OLD.concordance_at IS NOT NEW.concordance_at BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'frozen_appointments' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_leave BEFORE DELETE ON diagnoses BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'diagnoses' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_move BEFORE UPDATE ON diagnoses WHEN OLD.consult_id IS NOT NEW.consult_id OR OLD.type IS NOT NEW.type OR OLD.published_at IS NOT NEW.published_at BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'diagnoses' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_join AFTER INSERT ON diagnoses BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'diagnoses' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_moved AFTER UPDATE ON diagnoses WHEN OLD.consult_id IS NOT NEW.consult_id OR OLD.type IS NOT NEW.type OR OLD.published_at IS NOT NEW.published_at BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'diagnoses' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
