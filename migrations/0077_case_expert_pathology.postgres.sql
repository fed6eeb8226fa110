-- An expert's tab sorted by pathology number read by index (issue 17).
-- Each case_experts row also copies its case's pathology_number (as 0069
-- copies the tabs' columns), so that a tab's page in that order is a walk
-- of (expert_id, status, pathology_number, case_id) over the expert's rows
-- instead of the join of all their cases of the tab to consultations and a
-- sort (~20,000 for the completed tab at a million cases). The tie-break
-- (case_id DESC) is sorted within equal numbers (incremental sort), which
-- lets one index serve both directions.
--
-- Live server: the new trigger is created first, which holds consultations'
-- SHARE ROW EXCLUSIVE lock (writes to cases wait, reads go on) until the
-- migration commits, so that no number changes between the backfill's read
-- and the trigger. The ALTER holds case_experts' exclusive lock until the
-- commit: an expert's lists wait for the backfill and the index build.
CREATE OR REPLACE FUNCTION case_experts_refresh(c BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF c IS NULL THEN
        RETURN;
    END IF;
    PERFORM 1 FROM consultations WHERE id = c FOR UPDATE;
    DELETE FROM case_experts WHERE case_id = c;
    INSERT INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
            print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number)
        SELECT DISTINCT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review,
            k.print_deliver_status, CASE WHEN k.expert_id IS NULL THEN 0 ELSE 1 END, CASE WHEN k.deleted_at IS NULL THEN 0 ELSE 1 END,
            k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = c
        ON CONFLICT DO NOTHING;
END
$$;

CREATE OR REPLACE FUNCTION case_experts_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE case_experts SET status = NEW.status, is_draft = NEW.is_draft, is_recall = NEW.is_recall, is_return = NEW.is_return,
        is_lock = NEW.is_lock, supplement_review = NEW.supplement_review, print_deliver_status = NEW.print_deliver_status,
        assigned = CASE WHEN NEW.expert_id IS NULL THEN 0 ELSE 1 END, deleted = CASE WHEN NEW.deleted_at IS NULL THEN 0 ELSE 1 END,
        submitted_at = NEW.submitted_at, timeout_at = NEW.timeout_at, remind_at = NEW.remind_at, release_at = NEW.release_at,
        pathology_number = NEW.pathology_number
    WHERE case_id = NEW.id;
    RETURN NULL;
END
$$;

-- A trigger of its own beside 0069's case_experts_case_copy (whose WHEN
-- would need a DROP TRIGGER: consultations' exclusive lock, readers too).
CREATE TRIGGER case_experts_case_pathology AFTER UPDATE OF pathology_number ON consultations FOR EACH ROW
    WHEN (OLD.pathology_number IS DISTINCT FROM NEW.pathology_number)
    EXECUTE FUNCTION case_experts_copy();

ALTER TABLE case_experts ADD COLUMN pathology_number TEXT NOT NULL DEFAULT '';

UPDATE case_experts x SET pathology_number = k.pathology_number
    FROM consultations k WHERE k.id = x.case_id AND k.pathology_number <> '';

-- Text sorts by code point (COLLATE "C", as the lists write it). It
-- includes the expert's scope's columns, so that a deep page's keys are an
-- index-only walk.
CREATE INDEX case_experts_pathology ON case_experts(expert_id, status, pathology_number COLLATE "C", case_id) INCLUDE (deleted, is_return);
ANALYZE case_experts;
