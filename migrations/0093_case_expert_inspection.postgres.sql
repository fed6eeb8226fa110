-- An expert's cases filtered by inspection date and sorted by consultation
-- number read from their rows of case_experts (issue 17). Each row also
-- copies its case's inspection_date and consult_no (as 0069, 0077 and 0083
-- copy the tabs' columns, the pathology number and the hospital), the
-- last of the expert screens' filters and sorts it did not hold, so that
-- such a list's conditions name x alone: its count reads the expert's rows
-- of case_experts instead of joining each case of a tab (~20,000 for the
-- completed tab at a million cases) to consultations, and a page sorted by
-- consultation number walks (expert_id, status, consult_no, case_id).
--
-- Live server: the new trigger is created first, which holds consultations'
-- SHARE ROW EXCLUSIVE lock (writes to cases wait, reads go on) until the
-- migration commits, so that no date or number changes between the
-- backfill's read and the trigger. The ALTER holds case_experts' exclusive
-- lock until the commit: an expert's lists wait for the backfill and the
-- index build.
CREATE OR REPLACE FUNCTION case_experts_refresh(c BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF c IS NULL THEN
        RETURN;
    END IF;
    PERFORM 1 FROM consultations WHERE id = c FOR UPDATE;
    DELETE FROM case_experts WHERE case_id = c;
    INSERT INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
            print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id,
            inspection_date, consult_no)
        SELECT DISTINCT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review,
            k.print_deliver_status, CASE WHEN k.expert_id IS NULL THEN 0 ELSE 1 END, CASE WHEN k.deleted_at IS NULL THEN 0 ELSE 1 END,
            k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
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
        pathology_number = NEW.pathology_number, hospital_id = NEW.hospital_id, inspection_date = NEW.inspection_date,
        consult_no = NEW.consult_no
    WHERE case_id = NEW.id;
    RETURN NULL;
END
$$;

-- A trigger of its own beside 0069's, 0077's and 0083's (see 0077).
CREATE TRIGGER case_experts_case_inspection AFTER UPDATE OF inspection_date, consult_no ON consultations FOR EACH ROW
    WHEN (OLD.inspection_date IS DISTINCT FROM NEW.inspection_date OR OLD.consult_no IS DISTINCT FROM NEW.consult_no)
    EXECUTE FUNCTION case_experts_copy();

ALTER TABLE case_experts ADD COLUMN inspection_date TIMESTAMPTZ, ADD COLUMN consult_no TEXT NOT NULL DEFAULT '';

UPDATE case_experts x SET inspection_date = k.inspection_date, consult_no = k.consult_no
    FROM consultations k WHERE k.id = x.case_id;

-- Text sorts by code point (COLLATE "C", as the lists write it); the
-- tie-break (case_id DESC) is sorted within equal numbers, so one index
-- serves both directions (as 0077's).
CREATE INDEX case_experts_consult ON case_experts(expert_id, status, consult_no COLLATE "C", case_id) INCLUDE (deleted, is_return);
ANALYZE case_experts;
