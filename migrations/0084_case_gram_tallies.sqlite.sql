-- The exact counts of a search of one character beyond ASCII (a surname's
-- character, issue 17): the case tallies of migration 0029 also by each
-- one-character piece of a case's searched texts (consultation_grams'
-- one-character grams, migration 0058). A list's total and its tab counts
-- under such a search then sum the tally rows of the character, which lie
-- together in an index that holds the count, instead of reading each
-- matching case (王: 9,860 cases at 1M, scattered over the table). Kept by
-- triggers in the transaction that writes the case, as the case tallies
-- are: the old grams leave the old key before the row changes (the view
-- reads the row), the new ones join the new key after.
CREATE TABLE consultation_gram_tallies (
    gram TEXT NOT NULL,
    hospital_id BIGINT NOT NULL,
    center_id BIGINT,
    expert_id BIGINT,
    status INTEGER NOT NULL,
    is_draft INTEGER NOT NULL,
    is_recall INTEGER NOT NULL,
    is_return INTEGER NOT NULL,
    is_lock INTEGER NOT NULL,
    supplement_review INTEGER NOT NULL,
    print_deliver_status INTEGER NOT NULL,
    deleted_at {{TS}},
    n BIGINT NOT NULL
);
INSERT INTO consultation_gram_tallies (gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n)
    SELECT g.gram, c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, COUNT(*)
    FROM consultation_grams g CROSS JOIN consultations c ON c.id = g.case_id WHERE length(g.gram) = 1
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
CREATE INDEX consultation_gram_tallies_key ON consultation_gram_tallies(gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n);
ANALYZE consultation_gram_tallies;

CREATE TRIGGER consultations_gram_tally_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO consultation_gram_tallies (gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n) SELECT DISTINCT s.gram, NEW.hospital_id, NEW.center_id, NEW.expert_id, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0 FROM consultation_gram_source s
        WHERE s.case_id = NEW.id AND length(s.gram) = 1 AND NOT EXISTS (SELECT 1 FROM consultation_gram_tallies t WHERE t.gram = s.gram AND t.hospital_id IS NEW.hospital_id AND t.center_id IS NEW.center_id AND t.expert_id IS NEW.expert_id AND t.status IS NEW.status AND t.is_draft IS NEW.is_draft AND t.is_recall IS NEW.is_recall AND t.is_return IS NEW.is_return AND t.is_lock IS NEW.is_lock AND t.supplement_review IS NEW.supplement_review AND t.print_deliver_status IS NEW.print_deliver_status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE consultation_gram_tallies SET n = n + 1 WHERE gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = NEW.id AND length(gram) = 1) AND hospital_id IS NEW.hospital_id AND center_id IS NEW.center_id AND expert_id IS NEW.expert_id AND status IS NEW.status AND is_draft IS NEW.is_draft AND is_recall IS NEW.is_recall AND is_return IS NEW.is_return AND is_lock IS NEW.is_lock AND supplement_review IS NEW.supplement_review AND print_deliver_status IS NEW.print_deliver_status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER consultations_gram_tally_delete BEFORE DELETE ON consultations BEGIN
    UPDATE consultation_gram_tallies SET n = n - 1 WHERE gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = OLD.id AND length(gram) = 1) AND hospital_id IS OLD.hospital_id AND center_id IS OLD.center_id AND expert_id IS OLD.expert_id AND status IS OLD.status AND is_draft IS OLD.is_draft AND is_recall IS OLD.is_recall AND is_return IS OLD.is_return AND is_lock IS OLD.is_lock AND supplement_review IS OLD.supplement_review AND print_deliver_status IS OLD.print_deliver_status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER consultations_gram_tally_update_old BEFORE UPDATE ON consultations
WHEN OLD.hospital_id IS NOT NEW.hospital_id OR OLD.center_id IS NOT NEW.center_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR OLD.patient_name IS NOT NEW.patient_name OR OLD.consult_no IS NOT NEW.consult_no OR OLD.pathology_number IS NOT NEW.pathology_number OR json_extract(OLD.case_data, '$.id_number') IS NOT json_extract(NEW.case_data, '$.id_number') BEGIN
    UPDATE consultation_gram_tallies SET n = n - 1 WHERE gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = OLD.id AND length(gram) = 1) AND hospital_id IS OLD.hospital_id AND center_id IS OLD.center_id AND expert_id IS OLD.expert_id AND status IS OLD.status AND is_draft IS OLD.is_draft AND is_recall IS OLD.is_recall AND is_return IS OLD.is_return AND is_lock IS OLD.is_lock AND supplement_review IS OLD.supplement_review AND print_deliver_status IS OLD.print_deliver_status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER consultations_gram_tally_update_new AFTER UPDATE ON consultations
WHEN OLD.hospital_id IS NOT NEW.hospital_id OR OLD.center_id IS NOT NEW.center_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR OLD.patient_name IS NOT NEW.patient_name OR OLD.consult_no IS NOT NEW.consult_no OR OLD.pathology_number IS NOT NEW.pathology_number OR json_extract(OLD.case_data, '$.id_number') IS NOT json_extract(NEW.case_data, '$.id_number') BEGIN
    INSERT INTO consultation_gram_tallies (gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n) SELECT DISTINCT s.gram, NEW.hospital_id, NEW.center_id, NEW.expert_id, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0 FROM consultation_gram_source s
        WHERE s.case_id = NEW.id AND length(s.gram) = 1 AND NOT EXISTS (SELECT 1 FROM consultation_gram_tallies t WHERE t.gram = s.gram AND t.hospital_id IS NEW.hospital_id AND t.center_id IS NEW.center_id AND t.expert_id IS NEW.expert_id AND t.status IS NEW.status AND t.is_draft IS NEW.is_draft AND t.is_recall IS NEW.is_recall AND t.is_return IS NEW.is_return AND t.is_lock IS NEW.is_lock AND t.supplement_review IS NEW.supplement_review AND t.print_deliver_status IS NEW.print_deliver_status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE consultation_gram_tallies SET n = n + 1 WHERE gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = NEW.id AND length(gram) = 1) AND hospital_id IS NEW.hospital_id AND center_id IS NEW.center_id AND expert_id IS NEW.expert_id AND status IS NEW.status AND is_draft IS NEW.is_draft AND is_recall IS NEW.is_recall AND is_return IS NEW.is_return AND is_lock IS NEW.is_lock AND supplement_review IS NEW.supplement_review AND print_deliver_status IS NEW.print_deliver_status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
