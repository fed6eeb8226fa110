-- An expert's case tabs and their counts read by index (issue 17). Each
-- case_experts row also holds the columns of its case that the case tabs
-- and the expert's default sort (submitted_at) name, so that an expert's
-- tab page is a walk of (expert_id, status, submitted_at, case_id) and a
-- tab count reads only the expert's rows of case_experts (the table is
-- clustered by expert), instead of fetching the ~26,000 cases an expert is
-- named on at a million cases. assigned is "expert_id IS NOT NULL",
-- deleted "deleted_at IS NOT NULL". The 0056 triggers are replaced by ones
-- that copy the columns when they (re)compute a case's members, and a new
-- trigger copies them when a case's row changes them. SQLite runs the
-- migration as one write transaction (readers go on, writers wait).
ALTER TABLE case_experts ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN is_draft INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN is_recall INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN is_return INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN is_lock INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN supplement_review INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN print_deliver_status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN assigned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_experts ADD COLUMN submitted_at DATETIME;
ALTER TABLE case_experts ADD COLUMN timeout_at DATETIME;
ALTER TABLE case_experts ADD COLUMN remind_at DATETIME;
ALTER TABLE case_experts ADD COLUMN release_at DATETIME;

UPDATE case_experts SET (status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at) = (k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at)
    FROM consultations k WHERE k.id = case_experts.case_id;

-- A tab's page: the expert's cases of a status by the default sort (read
-- backwards for submitted_at DESC NULLS LAST, case_id DESC). It ends with
-- every other copied column (as PostgreSQL's INCLUDE), so that a tab's
-- count, the counts of all tabs and a deep page's keys read the index
-- alone: without them SQLite looked each of an expert's ~26,000 entries
-- up in the table for deleted and is_return.
CREATE INDEX case_experts_tab ON case_experts(expert_id, status, submitted_at, case_id,
    deleted, is_return, is_draft, is_recall, is_lock, supplement_review, assigned, print_deliver_status, timeout_at, remind_at, release_at);
-- The to_review tab (status 2 or a supplement to review) by the default
-- sort: its OR spans two values of status, which case_experts_tab can only
-- read as two ranges and then sort.
CREATE INDEX case_experts_review ON case_experts(expert_id, submitted_at, case_id, deleted, is_return, status, supplement_review)
    WHERE (status = 2 OR supplement_review = 1);

DROP TRIGGER case_experts_case_insert;
DROP TRIGGER case_experts_case_update;
DROP TRIGGER case_experts_invitation_insert;
DROP TRIGGER case_experts_invitation_update;
DROP TRIGGER case_experts_invitation_delete;
DROP TRIGGER case_experts_supplement_insert;
DROP TRIGGER case_experts_supplement_update;
DROP TRIGGER case_experts_supplement_delete;

CREATE TRIGGER case_experts_case_insert AFTER INSERT ON consultations BEGIN
    DELETE FROM case_experts WHERE case_id = NEW.id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.id;
END;
CREATE TRIGGER case_experts_case_update AFTER UPDATE OF expert_id, reviewer_id, returned_by, handover_from, id ON consultations
WHEN OLD.expert_id IS NOT NEW.expert_id OR OLD.reviewer_id IS NOT NEW.reviewer_id OR OLD.returned_by IS NOT NEW.returned_by OR OLD.handover_from IS NOT NEW.handover_from OR OLD.id IS NOT NEW.id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.id, NEW.id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER case_experts_case_copy AFTER UPDATE OF status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status,
    expert_id, deleted_at, submitted_at, timeout_at, remind_at, release_at ON consultations
WHEN OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return
    OR OLD.is_lock IS NOT NEW.is_lock OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status
    OR (OLD.expert_id IS NULL) <> (NEW.expert_id IS NULL) OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.remind_at IS NOT NEW.remind_at
    OR OLD.release_at IS NOT NEW.release_at BEGIN
    UPDATE case_experts SET (status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at) = (NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review,
        NEW.print_deliver_status, NEW.expert_id IS NOT NULL, NEW.deleted_at IS NOT NULL, NEW.submitted_at, NEW.timeout_at, NEW.remind_at, NEW.release_at)
    WHERE case_id = NEW.id;
END;

CREATE TRIGGER case_experts_invitation_insert AFTER INSERT ON invitations BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.consult_id AND s.expert_id = NEW.invitee_id;
END;
CREATE TRIGGER case_experts_invitation_update AFTER UPDATE OF consult_id, invitee_id ON invitations
WHEN OLD.consult_id IS NOT NEW.consult_id OR OLD.invitee_id IS NOT NEW.invitee_id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_invitation_delete AFTER DELETE ON invitations BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = OLD.consult_id;
END;

CREATE TRIGGER case_experts_supplement_insert AFTER INSERT ON diagnoses WHEN NEW.type = 1 AND NEW.reviewer_id IS NOT NULL BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = NEW.consult_id AND s.expert_id = NEW.reviewer_id;
END;
CREATE TRIGGER case_experts_supplement_update AFTER UPDATE OF consult_id, type, reviewer_id ON diagnoses
WHEN (OLD.type = 1 OR NEW.type = 1) AND (OLD.consult_id IS NOT NEW.consult_id OR OLD.type IS NOT NEW.type OR OLD.reviewer_id IS NOT NEW.reviewer_id) BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_supplement_delete AFTER DELETE ON diagnoses WHEN OLD.type = 1 AND OLD.reviewer_id IS NOT NULL BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, assigned, deleted, submitted_at, timeout_at, remind_at, release_at)
        SELECT s.expert_id, s.case_id, k.status, k.is_draft, k.is_recall, k.is_return, k.is_lock, k.supplement_review, k.print_deliver_status, k.expert_id IS NOT NULL, k.deleted_at IS NOT NULL, k.submitted_at, k.timeout_at, k.remind_at, k.release_at
        FROM case_expert_sources s JOIN consultations k ON k.id = s.case_id WHERE s.case_id = OLD.consult_id;
END;
