-- The cases of each one-character piece of the searched texts (the
-- one-character rows of consultation_grams, migration 0058) with copies of
-- the case columns the lists' scopes, tabs, common filters and default
-- sorts name (issue 17). A search of one character beyond ASCII that
-- names no hospital matches exactly the cases of its piece: its counts
-- (the list's total, the tab counts) and the keys of its pages are then
-- read from one range of this table's key (gram, id), the ~10,000 cases
-- of 王 at 1M side by side, instead of reading each of those cases' rows,
-- scattered over the table, by id (listquery.Tally.Rows). Kept in the
-- transaction that writes the case: a piece's row comes and goes with the
-- piece (triggers on consultation_grams, which the cases' triggers write),
-- and the copies follow the case's columns (the bench loader's rebuild of
-- consultation_grams refills it so). Types as in consultations, so that a
-- condition compares the copies as it compares the columns.
CREATE TABLE consultation_gram_cases (
    gram TEXT NOT NULL,
    id INTEGER NOT NULL,
    hospital_id BIGINT,
    center_id BIGINT,
    expert_id BIGINT,
    user_id BIGINT,
    staff_id BIGINT,
    status INTEGER,
    is_draft INTEGER,
    is_recall INTEGER,
    is_return INTEGER,
    is_lock INTEGER,
    supplement_review INTEGER,
    print_deliver_status INTEGER,
    expedite INTEGER,
    charge_status INTEGER,
    deleted_at DATETIME,
    created_at DATETIME,
    submitted_at DATETIME,
    timeout_at DATETIME,
    remind_at DATETIME,
    release_at DATETIME,
    PRIMARY KEY (gram, id)
) WITHOUT ROWID;
INSERT INTO consultation_gram_cases (gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at)
    SELECT g.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at, c.release_at
    FROM consultation_grams g CROSS JOIN consultations c ON c.id = g.case_id WHERE length(g.gram) = 1 ORDER BY g.gram, c.id;
-- A case's rows, for the triggers that copy its columns.
CREATE INDEX consultation_gram_cases_case ON consultation_gram_cases(id);
ANALYZE consultation_gram_cases;

CREATE TRIGGER consultation_gram_cases_insert AFTER INSERT ON consultation_grams WHEN length(NEW.gram) = 1 BEGIN
    INSERT INTO consultation_gram_cases (gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at)
    SELECT NEW.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at, c.release_at
    FROM consultations c WHERE c.id = NEW.case_id;
END;
CREATE TRIGGER consultation_gram_cases_delete AFTER DELETE ON consultation_grams WHEN length(OLD.gram) = 1 BEGIN
    DELETE FROM consultation_gram_cases WHERE gram = OLD.gram AND id = OLD.case_id;
END;
CREATE TRIGGER consultation_gram_cases_update AFTER UPDATE OF hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at ON consultations
WHEN OLD.hospital_id IS NOT NEW.hospital_id OR OLD.center_id IS NOT NEW.center_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.user_id IS NOT NEW.user_id OR OLD.staff_id IS NOT NEW.staff_id
    OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock
    OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR OLD.expedite IS NOT NEW.expedite OR OLD.charge_status IS NOT NEW.charge_status
    OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.remind_at IS NOT NEW.remind_at OR OLD.release_at IS NOT NEW.release_at BEGIN
    UPDATE consultation_gram_cases SET hospital_id = NEW.hospital_id, center_id = NEW.center_id, expert_id = NEW.expert_id, user_id = NEW.user_id, staff_id = NEW.staff_id,
        status = NEW.status, is_draft = NEW.is_draft, is_recall = NEW.is_recall, is_return = NEW.is_return, is_lock = NEW.is_lock, supplement_review = NEW.supplement_review,
        print_deliver_status = NEW.print_deliver_status, expedite = NEW.expedite, charge_status = NEW.charge_status, deleted_at = NEW.deleted_at, created_at = NEW.created_at,
        submitted_at = NEW.submitted_at, timeout_at = NEW.timeout_at, remind_at = NEW.remind_at, release_at = NEW.release_at
    WHERE id = NEW.id;
END;
