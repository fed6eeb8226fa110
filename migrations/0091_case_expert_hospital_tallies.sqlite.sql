-- An expert's case tallies also by hospital (issue 17): case_expert_tallies
-- (migration 0080) counts an expert's rows of case_experts by the columns
-- their scope and tabs name, and now by hospital_id too (copied by 0083),
-- so that the total of an expert's search that names hospitals only (a
-- hospital's name that no case's searched columns hold, x.hospital_id IN
-- (…)) sums the tally rows of those hospitals instead of counting their
-- rows: at a million cases an expert's completed cases of 人民医院 are
-- ~13,000 rows of 26 hospitals. An expert has up to 50 times as many
-- tally rows (a few thousand), which their tab counts sum. The table and
-- its triggers are made again with the new key. SQLite runs the migration
-- as one write transaction (readers go on, writers wait).
DROP TRIGGER case_expert_tallies_insert;
DROP TRIGGER case_expert_tallies_delete;
DROP TRIGGER case_expert_tallies_update;
DROP TABLE case_expert_tallies;

CREATE TABLE case_expert_tallies (
    expert_id BIGINT NOT NULL,
    deleted INTEGER NOT NULL,
    status INTEGER NOT NULL,
    is_draft INTEGER NOT NULL,
    is_recall INTEGER NOT NULL,
    is_return INTEGER NOT NULL,
    is_lock INTEGER NOT NULL,
    assigned INTEGER NOT NULL,
    supplement_review INTEGER NOT NULL,
    print_deliver_status INTEGER NOT NULL,
    hospital_id INTEGER NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id)
) WITHOUT ROWID;

INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n)
    SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, COUNT(*)
    FROM case_experts GROUP BY expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id;

CREATE TRIGGER case_expert_tallies_insert AFTER INSERT ON case_experts BEGIN
    INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n) VALUES (NEW.expert_id, NEW.deleted, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.assigned, NEW.supplement_review, NEW.print_deliver_status, NEW.hospital_id, 1)
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER case_expert_tallies_delete AFTER DELETE ON case_experts BEGIN
    UPDATE case_expert_tallies SET n = n - 1 WHERE expert_id = OLD.expert_id AND deleted = OLD.deleted AND status = OLD.status AND is_draft = OLD.is_draft AND is_recall = OLD.is_recall AND is_return = OLD.is_return AND is_lock = OLD.is_lock AND assigned = OLD.assigned AND supplement_review = OLD.supplement_review AND print_deliver_status = OLD.print_deliver_status AND hospital_id = OLD.hospital_id;
END;
CREATE TRIGGER case_expert_tallies_update AFTER UPDATE OF expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id ON case_experts
WHEN OLD.expert_id IS NOT NEW.expert_id OR OLD.deleted IS NOT NEW.deleted OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft
    OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock OR OLD.assigned IS NOT NEW.assigned
    OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status OR OLD.hospital_id IS NOT NEW.hospital_id BEGIN
    UPDATE case_expert_tallies SET n = n - 1 WHERE expert_id = OLD.expert_id AND deleted = OLD.deleted AND status = OLD.status AND is_draft = OLD.is_draft AND is_recall = OLD.is_recall AND is_return = OLD.is_return AND is_lock = OLD.is_lock AND assigned = OLD.assigned AND supplement_review = OLD.supplement_review AND print_deliver_status = OLD.print_deliver_status AND hospital_id = OLD.hospital_id;
    INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n) VALUES (NEW.expert_id, NEW.deleted, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.assigned, NEW.supplement_review, NEW.print_deliver_status, NEW.hospital_id, 1)
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id) DO UPDATE SET n = n + 1;
END;
