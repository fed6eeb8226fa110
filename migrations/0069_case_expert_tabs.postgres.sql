-- An expert's case tabs and their counts read by index (issue 17). Each
-- case_experts row also holds the columns of its case that the case tabs
-- and the expert's default sort (submitted_at) name, so that an expert's
-- tab page is a walk of (expert_id, status, submitted_at, case_id) and a
-- tab count reads only the expert's rows of case_experts, instead of
-- fetching the ~26,000 cases an expert is named on at a million cases.
-- assigned is "expert_id IS NOT NULL", deleted "deleted_at IS NOT NULL".
-- The 0056 triggers copy the columns when they (re)compute a case's
-- members; a new trigger copies them when a case's row changes them.
--
-- Live server: the triggers are created first, which holds consultations'
-- SHARE ROW EXCLUSIVE lock (writes to cases wait, reads go on) until the
-- migration commits, so that no case changes between the backfill's read
-- and the new trigger; the ALTER holds case_experts' exclusive lock only
-- for the catalog change (the new columns have constant defaults), the
-- backfill locks its rows and the index build holds its SHARE lock.
CREATE OR REPLACE FUNCTION case_experts_refresh(c BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF c IS NULL THEN
        RETURN;
    END IF;
    PERFORM 1 FROM consultations WHERE id = c FOR UPDATE;
    DELETE FROM case_experts WHERE case_id = c;
    INSERT INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
            print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT DISTINCT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review,
            k.print_deliver_status, CASE WHEN k.expert_id IS NULL THEN 0 ELSE 1 END, CASE WHEN k.deleted_at IS NULL THEN 0 ELSE 1 END,
            k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = c
        ON CONFLICT DO NOTHING;
END
$$;

CREATE FUNCTION case_experts_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE case_experts SET status = NEW.status, is_draft = NEW.is_draft, is_recall = NEW.is_recall, is_return = NEW.is_return,
        is_lock = NEW.is_lock, supplement_review = NEW.supplement_review, print_deliver_status = NEW.print_deliver_status,
        assigned = CASE WHEN NEW.expert_id IS NULL THEN 0 ELSE 1 END, deleted = CASE WHEN NEW.deleted_at IS NULL THEN 0 ELSE 1 END,
        submitted_at = NEW.submitted_at, timeout_at = NEW.timeout_at, remind_at = NEW.remind_at, release_at = NEW.release_at
    WHERE case_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER case_experts_case_copy AFTER UPDATE ON consultations FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.is_draft IS DISTINCT FROM NEW.is_draft OR OLD.is_recall IS DISTINCT FROM NEW.is_recall
        OR OLD.is_return IS DISTINCT FROM NEW.is_return OR OLD.is_lock IS DISTINCT FROM NEW.is_lock
        OR OLD.supplement_review IS DISTINCT FROM NEW.supplement_review OR OLD.print_deliver_status IS DISTINCT FROM NEW.print_deliver_status
        OR (OLD.expert_id IS NULL) <> (NEW.expert_id IS NULL) OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
        OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.timeout_at IS DISTINCT FROM NEW.timeout_at
        OR OLD.remind_at IS DISTINCT FROM NEW.remind_at OR OLD.release_at IS DISTINCT FROM NEW.release_at)
    EXECUTE FUNCTION case_experts_copy();

ALTER TABLE case_experts
    ADD COLUMN status INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN is_draft INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN is_recall INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN is_return INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN is_lock INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN supplement_review INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN print_deliver_status INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN assigned INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN submitted_at TIMESTAMPTZ,
    ADD COLUMN timeout_at TIMESTAMPTZ,
    ADD COLUMN remind_at TIMESTAMPTZ,
    ADD COLUMN release_at TIMESTAMPTZ;

UPDATE case_experts x SET status = k.status, is_draft = k.is_draft, is_recall = k.is_recall, is_return = k.is_return, is_lock = k.is_lock,
    supplement_review = k.supplement_review, print_deliver_status = k.print_deliver_status,
    assigned = CASE WHEN k.expert_id IS NULL THEN 0 ELSE 1 END, deleted = CASE WHEN k.deleted_at IS NULL THEN 0 ELSE 1 END,
    submitted_at = k.submitted_at, timeout_at = k.timeout_at, remind_at = k.remind_at, release_at = k.release_at
    FROM consultations k WHERE k.id = x.case_id;

-- A tab's page: the expert's cases of a status by the default sort (read
-- backwards for submitted_at DESC NULLS LAST, case_id DESC). It includes
-- every other copied column, so that a tab's count, the counts of all
-- tabs and a deep page's keys are index-only scans over the expert's
-- entries (an expert's rows are spread over the table: at a million cases
-- their ~26,000 rows lie on ~17,000 pages, a 260 ms read). Index-only
-- scans need the pages marked all-visible: autovacuum does so soon after
-- the backfill (which rewrote every row).
CREATE INDEX case_experts_tab ON case_experts(expert_id, status, submitted_at NULLS FIRST, case_id)
    INCLUDE (deleted, is_return, is_draft, is_recall, is_lock, supplement_review, assigned, print_deliver_status, timeout_at, remind_at, release_at);
-- The to_review tab (status 2 or a supplement to review) by the default
-- sort: its OR spans two values of status, which case_experts_tab can only
-- read as two ranges and then sort.
CREATE INDEX case_experts_review ON case_experts(expert_id, submitted_at NULLS FIRST, case_id)
    INCLUDE (deleted, is_return, status, supplement_review) WHERE status = 2 OR supplement_review = 1;
ANALYZE case_experts;
