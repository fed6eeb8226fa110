-- An expert's cases searched for a hospital's name read by index (issue 17).
-- Each case_experts row also copies its case's hospital_id (as 0069 and
-- 0077 copy the tabs' columns and the pathology number), so that an
-- expert's search whose matches are hospitals and named cases is a
-- condition on x alone: the count reads (expert_id, status, hospital_id …)
-- over the expert's rows of the matching hospitals instead of joining each
-- of a tab's ~26,000 cases to consultations at a million cases.
--
-- Live server: the new trigger is created first, which holds consultations'
-- SHARE ROW EXCLUSIVE lock (writes to cases wait, reads go on) until the
-- migration commits, so that no hospital changes between the backfill's
-- read and the trigger. The ALTER holds case_experts' exclusive lock until
-- the commit: an expert's lists wait for the backfill and the index build.
CREATE OR REPLACE FUNCTION case_experts_refresh(c BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF c IS NULL THEN
        RETURN;
    END IF;
    PERFORM 1 FROM consultations WHERE id = c FOR UPDATE;
    DELETE FROM case_experts WHERE case_id = c;
    INSERT INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
            print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id)
        SELECT DISTINCT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review,
            k.print_deliver_status, CASE WHEN k.expert_id IS NULL THEN 0 ELSE 1 END, CASE WHEN k.deleted_at IS NULL THEN 0 ELSE 1 END,
            k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id
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
        pathology_number = NEW.pathology_number, hospital_id = NEW.hospital_id
    WHERE case_id = NEW.id;
    RETURN NULL;
END
$$;

-- A trigger of its own beside 0069's and 0077's (see 0077).
CREATE TRIGGER case_experts_case_hospital AFTER UPDATE OF hospital_id ON consultations FOR EACH ROW
    WHEN (OLD.hospital_id IS DISTINCT FROM NEW.hospital_id)
    EXECUTE FUNCTION case_experts_copy();

ALTER TABLE case_experts ADD COLUMN hospital_id BIGINT NOT NULL DEFAULT 0;

UPDATE case_experts x SET hospital_id = k.hospital_id
    FROM consultations k WHERE k.id = x.case_id;

-- An expert's tab by the matching hospitals: the count reads the index
-- alone; a hospital's page reads its rows by the default sort.
CREATE INDEX case_experts_hospital ON case_experts(expert_id, status, hospital_id, submitted_at NULLS FIRST, case_id) INCLUDE (deleted, is_return);
ANALYZE case_experts;
