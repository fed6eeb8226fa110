-- Daily rollups of the slide judgements (issue 14): the HE screen's grades
-- A to D per hospital and period were read live, each judgement joined to
-- its case (at 1M cases over three years 4.6 s on PostgreSQL, 21 s on
-- SQLite). A judgement is an activity row of migration 0059 now, figure
-- slide_grade_<grade> on its created_at under the case's expert; triggers
-- keep it in the transaction that writes the judgement, and the case's
-- triggers (which read the same views) move it with the case. The reasons
-- of grade D stay a live read, of the D judgements alone, by a partial
-- index. The definitions of internal/statistics activity.go, checked
-- against it by TestStatisticsRollups.
-- The view again with the judgements (the columns unchanged).
CREATE OR REPLACE VIEW stat_activity AS
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
    UNION ALL SELECT 'slide_judgements', sj.id, sj.consult_id, 'slide_grade_' || sj.grade, sj.created_at, NULL, 1 FROM slide_judgements sj WHERE sj.grade IN ('A', 'B', 'C', 'D');

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => (SELECT offset_minutes FROM stat_zone)), 'YYYY-MM-DD'), center_id,
        CASE WHEN grain IN (2, 3) THEN -1 ELSE hospital_id END, CASE WHEN grain IN (1, 3) THEN -1 ELSE expert_id END, CASE WHEN grain IN (0, 3) THEN library_id ELSE -1 END, SUM(n)
    FROM stat_activity_figures CROSS JOIN stat_grains WHERE src = 'slide_judgements' GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7;

-- A judgement leaves its days before it changes or goes, and joins them
-- after it is written or changed (stat_activity_bump of 0059).
CREATE TRIGGER slide_judgements_stat_leave BEFORE DELETE ON slide_judgements FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER slide_judgements_stat_move BEFORE UPDATE ON slide_judgements FOR EACH ROW WHEN (OLD.grade IS DISTINCT FROM NEW.grade OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER slide_judgements_stat_join AFTER INSERT ON slide_judgements FOR EACH ROW EXECUTE FUNCTION stat_activity_bump();
CREATE TRIGGER slide_judgements_stat_moved AFTER UPDATE ON slide_judgements FOR EACH ROW WHEN (OLD.grade IS DISTINCT FROM NEW.grade OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_activity_bump();

-- The reasons of grade D: the D judgements by their instant.
CREATE INDEX slide_judgements_d_created ON slide_judgements(created_at) INCLUDE (consult_id, reason) WHERE grade = 'D';
