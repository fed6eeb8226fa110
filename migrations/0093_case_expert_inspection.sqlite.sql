-- An expert's cases filtered by inspection date and sorted by consultation
-- number read from their rows of case_experts (issue 17). Each row also
-- copies its case's inspection_date and consult_no (as 0069, 0077 and 0083
-- copy the tabs' columns, the pathology number and the hospital), the
-- last of the expert screens' filters and sorts it did not hold, so that
-- such a list's conditions name x alone: its count reads the expert's rows
-- of case_experts instead of joining each case of a tab (~20,000 for the
-- completed tab at a million cases) to consultations, and a page sorted by
-- consultation number walks (expert_id, status, consult_no, case_id …)
-- forwards or backwards (the tie-break is case_id DESC both ways, as in
-- 0077). 0083's triggers are replaced by ones that also copy the two
-- columns. SQLite runs the migration as one write transaction (readers go
-- on, writers wait).
ALTER TABLE case_experts ADD COLUMN inspection_date DATETIME;
ALTER TABLE case_experts ADD COLUMN consult_no TEXT NOT NULL DEFAULT '';

UPDATE case_experts SET (inspection_date, consult_no) = (k.inspection_date, k.consult_no)
    FROM consultations k WHERE k.id = case_experts.case_id;

CREATE INDEX case_experts_consult ON case_experts(expert_id, status, consult_no, case_id, deleted, is_return);
CREATE INDEX case_experts_consult_up ON case_experts(expert_id, status, consult_no, case_id DESC, deleted, is_return);
ANALYZE case_experts;

DROP TRIGGER case_experts_case_insert;
DROP TRIGGER case_experts_case_update;
DROP TRIGGER case_experts_case_copy;
DROP TRIGGER case_experts_invitation_insert;
DROP TRIGGER case_experts_invitation_update;
DROP TRIGGER case_experts_invitation_delete;
DROP TRIGGER case_experts_supplement_insert;
DROP TRIGGER case_experts_supplement_update;
DROP TRIGGER case_experts_supplement_delete;

CREATE TRIGGER case_experts_case_insert AFTER INSERT ON consultations BEGIN
    DELETE FROM case_experts WHERE case_id = NEW.id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.id;
END;
CREATE TRIGGER case_experts_case_update AFTER UPDATE OF expert_id, reviewer_id, returned_by, handover_from, id ON consultations
WHEN OLD.expert_id IS NOT NEW.expert_id OR OLD.reviewer_id IS NOT NEW.reviewer_id OR OLD.returned_by IS NOT NEW.returned_by OR OLD.handover_from IS NOT NEW.handover_from OR OLD.id IS NOT NEW.id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.id, NEW.id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER case_experts_case_copy AFTER UPDATE OF status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status,
    expert_id, deleted_at, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no ON consultations
WHEN OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return
    OR OLD.is_lock IS NOT NEW.is_lock OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status
    OR (OLD.expert_id IS NULL) <> (NEW.expert_id IS NULL) OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.remind_at IS NOT NEW.remind_at
    OR OLD.release_at IS NOT NEW.release_at OR OLD.pathology_number IS NOT NEW.pathology_number OR OLD.hospital_id IS NOT NEW.hospital_id
    OR OLD.inspection_date IS NOT NEW.inspection_date OR OLD.consult_no IS NOT NEW.consult_no BEGIN
    UPDATE case_experts SET (status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at,
        pathology_number, hospital_id, inspection_date, consult_no) = (NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review,
        NEW.print_deliver_status, NEW.expert_id IS NOT NULL, NEW.deleted_at IS NOT NULL, NEW.submitted_at, NEW.timeout_at, NEW.remind_at, NEW.release_at,
        NEW.pathology_number, NEW.hospital_id, NEW.inspection_date, NEW.consult_no)
    WHERE case_id = NEW.id;
END;

CREATE TRIGGER case_experts_invitation_insert AFTER INSERT ON invitations BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.consult_id AND s.expert_id = NEW.invitee_id;
END;
CREATE TRIGGER case_experts_invitation_update AFTER UPDATE OF consult_id, invitee_id ON invitations
WHEN OLD.consult_id IS NOT NEW.consult_id OR OLD.invitee_id IS NOT NEW.invitee_id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_invitation_delete AFTER DELETE ON invitations BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = OLD.consult_id;
END;

CREATE TRIGGER case_experts_supplement_insert AFTER INSERT ON diagnoses WHEN NEW.type = 1 AND NEW.reviewer_id IS NOT NULL BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.consult_id AND s.expert_id = NEW.reviewer_id;
END;
CREATE TRIGGER case_experts_supplement_update AFTER UPDATE OF consult_id, type, reviewer_id ON diagnoses
WHEN (OLD.type = 1 OR NEW.type = 1) AND (OLD.consult_id IS NOT NEW.consult_id OR OLD.type IS NOT NEW.type OR OLD.reviewer_id IS NOT NEW.reviewer_id) BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_supplement_delete AFTER DELETE ON diagnoses WHEN OLD.type = 1 AND OLD.reviewer_id IS NOT NULL BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at, pathology_number, hospital_id, inspection_date, consult_no)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at, k.pathology_number, k.hospital_id, k.inspection_date, k.consult_no
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = OLD.consult_id;
END;
