-- Daily rollups of the activity the statistics count (issue 14): log lines
-- (returned, recalled, counter-audited, amended, reviewed, referred), charges
-- and refunds (in fen) and invitations, per local day and the grains of
-- stat_daily (migrations 0046 and 0049), as figures of their own in it.
-- They were read live, row by row, and over three years at 1M cases took
-- seconds a screen. A log line or an invitation of an expert's own work
-- counts under its author in the expert column (reviews, referrals,
-- returns by the expert, invitations sent and answered); the others under
-- the case's expert. Triggers keep them in the transaction that writes the
-- row, and the case's triggers move them with the case (a deleted case's
-- activity counts nowhere, as on the screens).
-- The figures of the rows a case's activity leaves, each from its row alone
-- (author: the expert column it counts under, NULL for the case's expert;
-- n: what it adds, the fen of a charge or 1). The definitions of
-- internal/statistics activity.go, checked against it by
-- TestStatisticsRollups.
-- The figures of the rows a case's activity leaves, each from its row alone
-- (author: the expert column it counts under, NULL for the case's expert;
-- n: what it adds, the fen of a charge or 1). The definitions of
-- internal/statistics activity.go, checked against it by
-- TestStatisticsRollups.
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
    UNION ALL SELECT 'invitations', i.id, i.consult_id, 'invite_answered', i.replied_at, i.invitee_id, 1 FROM invitations i WHERE i.replied_at IS NOT NULL;

-- The same joined to their cases, where they count: not for a deleted case.
CREATE VIEW stat_activity_figures AS
    SELECT a.src, a.src_id, a.consult_id AS id, a.figure, a.at, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(a.author, c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id, a.n
    FROM stat_activity a JOIN consultations c ON c.id = a.consult_id WHERE c.deleted_at IS NULL;

-- The case figures of stat_daily and the activity, with what each adds.
DROP VIEW stat_case_figures;
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
    FROM stat_activity_figures CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- The case's triggers move its activity with its own figures, each row
-- adding what it counts.
DROP TRIGGER consultations_stat_insert;
CREATE TRIGGER consultations_stat_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_delete;
CREATE TRIGGER consultations_stat_delete BEFORE DELETE ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_leave;
CREATE TRIGGER consultations_stat_leave BEFORE UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
DROP TRIGGER consultations_stat_join;
CREATE TRIGGER consultations_stat_join AFTER UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;

-- A row of activity leaves its days before it changes or goes, and joins
-- them after it is written or changed.
CREATE TRIGGER case_logs_stat_leave BEFORE DELETE ON case_logs BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_stat_move BEFORE UPDATE ON case_logs WHEN OLD.action IS NOT NEW.action OR OLD.created_at IS NOT NEW.created_at OR OLD.user_id IS NOT NEW.user_id OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_stat_join AFTER INSERT ON case_logs BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER case_logs_stat_moved AFTER UPDATE ON case_logs WHEN OLD.action IS NOT NEW.action OR OLD.created_at IS NOT NEW.created_at OR OLD.user_id IS NOT NEW.user_id OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'case_logs' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER charges_stat_leave BEFORE DELETE ON charges BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'charges' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER charges_stat_move BEFORE UPDATE ON charges WHEN OLD.charged_at IS NOT NEW.charged_at OR OLD.refunded_at IS NOT NEW.refunded_at OR OLD.total_fen IS NOT NEW.total_fen OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'charges' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER charges_stat_join AFTER INSERT ON charges BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'charges' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER charges_stat_moved AFTER UPDATE ON charges WHEN OLD.charged_at IS NOT NEW.charged_at OR OLD.refunded_at IS NOT NEW.refunded_at OR OLD.total_fen IS NOT NEW.total_fen OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'charges' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER invitations_stat_leave BEFORE DELETE ON invitations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'invitations' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER invitations_stat_move BEFORE UPDATE ON invitations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.replied_at IS NOT NEW.replied_at OR OLD.inviter_id IS NOT NEW.inviter_id OR OLD.invitee_id IS NOT NEW.invitee_id OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, -n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'invitations' AND src_id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER invitations_stat_join AFTER INSERT ON invitations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'invitations' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER invitations_stat_moved AFTER UPDATE ON invitations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.replied_at IS NOT NEW.replied_at OR OLD.inviter_id IS NOT NEW.inviter_id OR OLD.invitee_id IS NOT NEW.invitee_id OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, n
        FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'invitations' AND src_id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
