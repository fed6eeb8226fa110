-- An expert's tab counts and list totals from a tally (issue 17): the rows
-- of case_experts counted by the columns an expert's scope and tabs name,
-- kept exact by triggers on case_experts in the transaction that writes
-- them, so that a count sums a few dozen tally rows instead of counting an
-- expert's ~26,000 rows at a million cases. The tabs that compare times
-- (timeout, releasing, …) still count rows. Every key column is NOT NULL,
-- so a new key is an upsert. SQLite runs the migration as one write
-- transaction (readers go on, writers wait).
--
-- Of those, the completed cases' releasing, to_print and to_send read
-- partial indexes of the expert's completed rows by release time (and
-- print status), a few hundred entries, instead of case_experts_tab's
-- ~26,000 completed entries each; they end with the columns the count
-- reads, so that it reads the index alone. status follows expert_id so
-- that their search (expert, status, then release time) always narrows
-- more than case_experts_tab's (expert, status): with (expert_id,
-- release_at) the planner, from the STAT4 samples and the bound time,
-- kept case_experts_tab for releasing (9 ms at 1M against 0.06 ms).

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
    n BIGINT NOT NULL,
    PRIMARY KEY (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status)
) WITHOUT ROWID;

INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n)
    SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, COUNT(*)
    FROM case_experts GROUP BY expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status;

CREATE INDEX case_experts_released ON case_experts(expert_id, status, print_deliver_status, release_at, deleted, is_return) WHERE status = 4;
CREATE INDEX case_experts_releasing ON case_experts(expert_id, status, release_at, deleted, is_return) WHERE status = 4;
ANALYZE case_experts;

CREATE TRIGGER case_expert_tallies_insert AFTER INSERT ON case_experts BEGIN
    INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n) VALUES (NEW.expert_id, NEW.deleted, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.assigned, NEW.supplement_review, NEW.print_deliver_status, 1)
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER case_expert_tallies_delete AFTER DELETE ON case_experts BEGIN
    UPDATE case_expert_tallies SET n = n - 1 WHERE expert_id = OLD.expert_id AND deleted = OLD.deleted AND status = OLD.status AND is_draft = OLD.is_draft AND is_recall = OLD.is_recall AND is_return = OLD.is_return AND is_lock = OLD.is_lock AND assigned = OLD.assigned AND supplement_review = OLD.supplement_review AND print_deliver_status = OLD.print_deliver_status;
END;
CREATE TRIGGER case_expert_tallies_update AFTER UPDATE OF expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status ON case_experts
WHEN OLD.expert_id IS NOT NEW.expert_id OR OLD.deleted IS NOT NEW.deleted OR OLD.status IS NOT NEW.status OR OLD.is_draft IS NOT NEW.is_draft
    OR OLD.is_recall IS NOT NEW.is_recall OR OLD.is_return IS NOT NEW.is_return OR OLD.is_lock IS NOT NEW.is_lock OR OLD.assigned IS NOT NEW.assigned
    OR OLD.supplement_review IS NOT NEW.supplement_review OR OLD.print_deliver_status IS NOT NEW.print_deliver_status BEGIN
    UPDATE case_expert_tallies SET n = n - 1 WHERE expert_id = OLD.expert_id AND deleted = OLD.deleted AND status = OLD.status AND is_draft = OLD.is_draft AND is_recall = OLD.is_recall AND is_return = OLD.is_return AND is_lock = OLD.is_lock AND assigned = OLD.assigned AND supplement_review = OLD.supplement_review AND print_deliver_status = OLD.print_deliver_status;
    INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n) VALUES (NEW.expert_id, NEW.deleted, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.assigned, NEW.supplement_review, NEW.print_deliver_status, 1)
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status) DO UPDATE SET n = n + 1;
END;
