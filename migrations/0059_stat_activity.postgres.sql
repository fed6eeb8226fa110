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
CREATE OR REPLACE VIEW stat_case_figures AS
    SELECT c.id, f.figure, f.at, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id, CAST(1 AS BIGINT) AS n
        FROM consultations c CROSS JOIN LATERAL stat_figures_of(c) f
    UNION ALL SELECT id, figure, at, center_id, hospital_id, expert_id, library_id, n FROM stat_activity_figures;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => (SELECT offset_minutes FROM stat_zone)), 'YYYY-MM-DD'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, SUM(n)
    FROM stat_activity_figures CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- A case that changes moves its activity with its own figures.
CREATE OR REPLACE FUNCTION stat_daily_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT x.figure, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), x.center_id,
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, SUM(x.d)
        FROM (
            SELECT f.figure, f.at, COALESCE(OLD.center_id, 0) AS center_id, OLD.hospital_id AS hospital_id, COALESCE(OLD.expert_id, 0) AS expert_id, COALESCE(OLD.library_id, 0) AS library_id, -1 AS d
                FROM stat_figures_of(OLD) f WHERE TG_OP <> 'INSERT'
            UNION ALL
            SELECT a.figure, a.at, COALESCE(OLD.center_id, 0), OLD.hospital_id, COALESCE(a.author, OLD.expert_id, 0), COALESCE(OLD.library_id, 0), -a.n
                FROM stat_activity a WHERE TG_OP <> 'INSERT' AND a.consult_id = OLD.id AND OLD.deleted_at IS NULL
            UNION ALL
            SELECT f.figure, f.at, COALESCE(NEW.center_id, 0), NEW.hospital_id, COALESCE(NEW.expert_id, 0), COALESCE(NEW.library_id, 0), 1
                FROM stat_figures_of(NEW) f WHERE TG_OP <> 'DELETE'
            UNION ALL
            SELECT a.figure, a.at, COALESCE(NEW.center_id, 0), NEW.hospital_id, COALESCE(a.author, NEW.expert_id, 0), COALESCE(NEW.library_id, 0), a.n
                FROM stat_activity a WHERE TG_OP <> 'DELETE' AND a.consult_id = NEW.id AND NEW.deleted_at IS NULL
        ) x CROSS JOIN stat_grains g
        GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(x.d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    RETURN NULL;
END
$$;

-- A row of activity leaves its days before it changes or goes, and joins
-- them after it is written or changed (rows locked in key order).
CREATE FUNCTION stat_activity_bump() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT x.figure, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), x.center_id,
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, sign * SUM(x.n)
        FROM stat_activity_figures x CROSS JOIN stat_grains g WHERE x.src = TG_TABLE_NAME AND x.src_id = rid
        GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(x.n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER case_logs_stat_leave BEFORE DELETE ON case_logs FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER case_logs_stat_move BEFORE UPDATE ON case_logs FOR EACH ROW WHEN (OLD.action IS DISTINCT FROM NEW.action OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER case_logs_stat_join AFTER INSERT ON case_logs FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER case_logs_stat_moved AFTER UPDATE ON case_logs FOR EACH ROW WHEN (OLD.action IS DISTINCT FROM NEW.action OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER charges_stat_leave BEFORE DELETE ON charges FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER charges_stat_move BEFORE UPDATE ON charges FOR EACH ROW WHEN (OLD.charged_at IS DISTINCT FROM NEW.charged_at OR OLD.refunded_at IS DISTINCT FROM NEW.refunded_at OR OLD.total_fen IS DISTINCT FROM NEW.total_fen OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER charges_stat_join AFTER INSERT ON charges FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER charges_stat_moved AFTER UPDATE ON charges FOR EACH ROW WHEN (OLD.charged_at IS DISTINCT FROM NEW.charged_at OR OLD.refunded_at IS DISTINCT FROM NEW.refunded_at OR OLD.total_fen IS DISTINCT FROM NEW.total_fen OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER invitations_stat_leave BEFORE DELETE ON invitations FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER invitations_stat_move BEFORE UPDATE ON invitations FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.replied_at IS DISTINCT FROM NEW.replied_at OR OLD.inviter_id IS DISTINCT FROM NEW.inviter_id OR OLD.invitee_id IS DISTINCT FROM NEW.invitee_id OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER invitations_stat_join AFTER INSERT ON invitations FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER invitations_stat_moved AFTER UPDATE ON invitations FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.replied_at IS DISTINCT FROM NEW.replied_at OR OLD.inviter_id IS DISTINCT FROM NEW.inviter_id OR OLD.invitee_id IS DISTINCT FROM NEW.invitee_id OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
