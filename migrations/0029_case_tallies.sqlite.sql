-- Case counts per hospital, center, expert and state, kept exact by
-- triggers in the transaction that writes the case: the tab counts and the
-- list totals read them instead of counting a million rows. deleted_at only
-- tells deleted (1970-01-01) from not deleted (NULL).

CREATE TABLE consultation_tallies (
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
CREATE INDEX consultation_tallies_key ON consultation_tallies(hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at);
INSERT INTO consultation_tallies (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n)
    SELECT c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, COUNT(*) FROM consultations c GROUP BY c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;

CREATE TRIGGER consultations_tally_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO consultation_tallies (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n) SELECT NEW.hospital_id, NEW.center_id, NEW.expert_id, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0
        WHERE NOT EXISTS (SELECT 1 FROM consultation_tallies t WHERE t.hospital_id IS NEW.hospital_id AND t.center_id IS NEW.center_id AND t.expert_id IS NEW.expert_id AND t.status IS NEW.status AND t.is_draft IS NEW.is_draft AND t.is_recall IS NEW.is_recall AND t.is_return IS NEW.is_return AND t.is_lock IS NEW.is_lock AND t.supplement_review IS NEW.supplement_review AND t.print_deliver_status IS NEW.print_deliver_status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE consultation_tallies SET n = n + 1 WHERE hospital_id IS NEW.hospital_id AND center_id IS NEW.center_id AND expert_id IS NEW.expert_id AND status IS NEW.status AND is_draft IS NEW.is_draft AND is_recall IS NEW.is_recall AND is_return IS NEW.is_return AND is_lock IS NEW.is_lock AND supplement_review IS NEW.supplement_review AND print_deliver_status IS NEW.print_deliver_status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER consultations_tally_delete AFTER DELETE ON consultations BEGIN
    UPDATE consultation_tallies SET n = n - 1 WHERE hospital_id IS OLD.hospital_id AND center_id IS OLD.center_id AND expert_id IS OLD.expert_id AND status IS OLD.status AND is_draft IS OLD.is_draft AND is_recall IS OLD.is_recall AND is_return IS OLD.is_return AND is_lock IS OLD.is_lock AND supplement_review IS OLD.supplement_review AND print_deliver_status IS OLD.print_deliver_status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
CREATE TRIGGER consultations_tally_update AFTER UPDATE ON consultations WHEN OLD.hospital_id IS NOT NEW.hospital_id OR OLD.center_id IS NOT NEW.center_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) BEGIN
    UPDATE consultation_tallies SET n = n - 1 WHERE hospital_id IS OLD.hospital_id AND center_id IS OLD.center_id AND expert_id IS OLD.expert_id AND status IS OLD.status AND is_draft IS OLD.is_draft AND is_recall IS OLD.is_recall AND is_return IS OLD.is_return AND is_lock IS OLD.is_lock AND supplement_review IS OLD.supplement_review AND print_deliver_status IS OLD.print_deliver_status AND deleted_at IS CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
    INSERT INTO consultation_tallies (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n) SELECT NEW.hospital_id, NEW.center_id, NEW.expert_id, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status, CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END, 0
        WHERE NOT EXISTS (SELECT 1 FROM consultation_tallies t WHERE t.hospital_id IS NEW.hospital_id AND t.center_id IS NEW.center_id AND t.expert_id IS NEW.expert_id AND t.status IS NEW.status AND t.is_draft IS NEW.is_draft AND t.is_recall IS NEW.is_recall AND t.is_return IS NEW.is_return AND t.is_lock IS NEW.is_lock AND t.supplement_review IS NEW.supplement_review AND t.print_deliver_status IS NEW.print_deliver_status AND t.deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END);
    UPDATE consultation_tallies SET n = n + 1 WHERE hospital_id IS NEW.hospital_id AND center_id IS NEW.center_id AND expert_id IS NEW.expert_id AND status IS NEW.status AND is_draft IS NEW.is_draft AND is_recall IS NEW.is_recall AND is_return IS NEW.is_return AND is_lock IS NEW.is_lock AND supplement_review IS NEW.supplement_review AND print_deliver_status IS NEW.print_deliver_status AND deleted_at IS CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE '1970-01-01 00:00:00' END;
END;
