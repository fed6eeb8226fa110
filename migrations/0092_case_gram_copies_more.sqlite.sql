-- consultation_gram_cases (migration 0089) also copies the case columns
-- the case screens offer to filter and sort by beyond the scopes, tabs and
-- common filters: gender, age, slide count, patient name, consultation
-- and pathology numbers, inspection date and assignment time (issue 17).
-- A one-character search whose list names any of them (the site's
-- completed tab of 李, expedite 0, female, by patient name: p99 385-896 ms
-- at 1M, 8 clients) read each of the character's ~10,000 cases by id from
-- the cases, for the count and for the page's keys; with the copies both
-- read the character's range of the key. updated_at and library_id stay
-- out: no screen offers them, and updated_at changes with every write.
--
-- The table is made again under another name from the old copies and the
-- cases' columns (its rows are those of the old table, in key order), put
-- in place of the old one, and its triggers are made again with the new
-- columns. The searched texts (patient name, consultation and pathology
-- numbers) are copied when a piece's row is written: a write of any of
-- them makes all of the case's pieces again (migration 0058), so the
-- update trigger leaves them out. SQLite runs the migration as one write
-- transaction (readers go on, writers wait). Types as in consultations.
DROP TRIGGER consultation_gram_cases_insert;
DROP TRIGGER consultation_gram_cases_delete;
DROP TRIGGER consultation_gram_cases_update;

CREATE TABLE consultation_gram_cases_new (
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
    gender TEXT,
    age INTEGER,
    slide_count INTEGER,
    patient_name TEXT,
    consult_no TEXT,
    pathology_number TEXT,
    inspection_date DATETIME,
    assigned_at DATETIME,
    PRIMARY KEY (gram, id)
) WITHOUT ROWID;
INSERT INTO consultation_gram_cases_new (gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
    print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at, gender, age, slide_count,
    patient_name, consult_no, pathology_number, inspection_date, assigned_at)
    SELECT o.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock,
        c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at,
        c.release_at, c.gender, c.age, c.slide_count, c.patient_name, c.consult_no, c.pathology_number, c.inspection_date, c.assigned_at
    FROM consultation_gram_cases o CROSS JOIN consultations c ON c.id = o.id ORDER BY o.gram, o.id;
DROP TABLE consultation_gram_cases;
ALTER TABLE consultation_gram_cases_new RENAME TO consultation_gram_cases;
-- A case's rows, for the triggers that copy its columns.
CREATE INDEX consultation_gram_cases_case ON consultation_gram_cases(id);
ANALYZE consultation_gram_cases;

CREATE TRIGGER consultation_gram_cases_insert AFTER INSERT ON consultation_grams WHEN length(NEW.gram) = 1 BEGIN
    INSERT INTO consultation_gram_cases (gram, id, hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock, supplement_review,
        print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at, gender, age, slide_count,
        patient_name, consult_no, pathology_number, inspection_date, assigned_at)
    SELECT NEW.gram, c.id, c.hospital_id, c.center_id, c.expert_id, c.user_id, c.staff_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock,
        c.supplement_review, c.print_deliver_status, c.expedite, c.charge_status, c.deleted_at, c.created_at, c.submitted_at, c.timeout_at, c.remind_at,
        c.release_at, c.gender, c.age, c.slide_count, c.patient_name, c.consult_no, c.pathology_number, c.inspection_date, c.assigned_at
    FROM consultations c WHERE c.id = NEW.case_id;
END;
CREATE TRIGGER consultation_gram_cases_delete AFTER DELETE ON consultation_grams WHEN length(OLD.gram) = 1 BEGIN
    DELETE FROM consultation_gram_cases WHERE gram = OLD.gram AND id = OLD.case_id;
END;
CREATE TRIGGER consultation_gram_cases_update AFTER UPDATE OF hospital_id, center_id, expert_id, user_id, staff_id, status, is_draft, is_recall, is_return, is_lock,
    supplement_review, print_deliver_status, expedite, charge_status, deleted_at, created_at, submitted_at, timeout_at, remind_at, release_at,
    gender, age, slide_count, inspection_date, assigned_at ON consultations
WHEN OLD.hospital_id IS NOT NEW.hospital_id OR OLD.center_id IS NOT NEW.center_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.user_id IS NOT NEW.user_id OR OLD.staff_id IS NOT NEW.staff_id
    OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock
    OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR OLD.expedite IS NOT NEW.expedite OR OLD.charge_status IS NOT NEW.charge_status
    OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.remind_at IS NOT NEW.remind_at OR OLD.release_at IS NOT NEW.release_at
    OR OLD.gender IS NOT NEW.gender OR OLD.age IS NOT NEW.age OR OLD.slide_count IS NOT NEW.slide_count OR OLD.inspection_date IS NOT NEW.inspection_date OR OLD.assigned_at IS NOT NEW.assigned_at BEGIN
    UPDATE consultation_gram_cases SET hospital_id = NEW.hospital_id, center_id = NEW.center_id, expert_id = NEW.expert_id, user_id = NEW.user_id, staff_id = NEW.staff_id,
        status = NEW.status, is_draft = NEW.is_draft, is_recall = NEW.is_recall, is_return = NEW.is_return, is_lock = NEW.is_lock, supplement_review = NEW.supplement_review,
        print_deliver_status = NEW.print_deliver_status, expedite = NEW.expedite, charge_status = NEW.charge_status, deleted_at = NEW.deleted_at, created_at = NEW.created_at,
        submitted_at = NEW.submitted_at, timeout_at = NEW.timeout_at, remind_at = NEW.remind_at, release_at = NEW.release_at,
        gender = NEW.gender, age = NEW.age, slide_count = NEW.slide_count, inspection_date = NEW.inspection_date, assigned_at = NEW.assigned_at
    WHERE id = NEW.id;
END;
