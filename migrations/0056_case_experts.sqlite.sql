-- The cases each expert is named on (issue 17): the one assigned, the
-- reviewer of the diagnosis, the one who returned it, the one who handed it
-- over, those invited (any answer) and the reviewers of its supplementary
-- reports. The expert's case scope reads this table by index instead of an
-- OR of six conditions over every case. Triggers keep it in the
-- transaction that writes any of those: each write recomputes the members
-- of the one case it touches from case_expert_sources.
CREATE TABLE case_experts (
    expert_id BIGINT NOT NULL,
    case_id BIGINT NOT NULL,
    PRIMARY KEY (expert_id, case_id)
) WITHOUT ROWID;

CREATE VIEW case_expert_sources (case_id, expert_id) AS
    SELECT id, expert_id FROM consultations WHERE expert_id IS NOT NULL
    UNION ALL SELECT id, reviewer_id FROM consultations WHERE reviewer_id IS NOT NULL
    UNION ALL SELECT id, returned_by FROM consultations WHERE returned_by IS NOT NULL
    UNION ALL SELECT id, handover_from FROM consultations WHERE handover_from IS NOT NULL
    UNION ALL SELECT consult_id, invitee_id FROM invitations
    UNION ALL SELECT consult_id, reviewer_id FROM diagnoses WHERE type = 1 AND reviewer_id IS NOT NULL;

INSERT INTO case_experts (expert_id, case_id) SELECT DISTINCT expert_id, case_id FROM case_expert_sources;
CREATE INDEX case_experts_case ON case_experts(case_id);

CREATE TRIGGER case_experts_case_insert AFTER INSERT ON consultations BEGIN
    DELETE FROM case_experts WHERE case_id = NEW.id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id = NEW.id;
END;
CREATE TRIGGER case_experts_case_update AFTER UPDATE OF expert_id, reviewer_id, returned_by, handover_from, id ON consultations
WHEN OLD.expert_id IS NOT NEW.expert_id OR OLD.reviewer_id IS NOT NEW.reviewer_id OR OLD.returned_by IS NOT NEW.returned_by OR OLD.handover_from IS NOT NEW.handover_from OR OLD.id IS NOT NEW.id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.id, NEW.id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id IN (OLD.id, NEW.id);
END;
CREATE TRIGGER case_experts_case_delete AFTER DELETE ON consultations BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.id;
END;

CREATE TRIGGER case_experts_invitation_insert AFTER INSERT ON invitations BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) VALUES (NEW.invitee_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_invitation_update AFTER UPDATE OF consult_id, invitee_id ON invitations
WHEN OLD.consult_id IS NOT NEW.consult_id OR OLD.invitee_id IS NOT NEW.invitee_id BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_invitation_delete AFTER DELETE ON invitations BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id = OLD.consult_id;
END;

CREATE TRIGGER case_experts_supplement_insert AFTER INSERT ON diagnoses WHEN NEW.type = 1 AND NEW.reviewer_id IS NOT NULL BEGIN
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) VALUES (NEW.reviewer_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_supplement_update AFTER UPDATE OF consult_id, type, reviewer_id ON diagnoses
WHEN (OLD.type = 1 OR NEW.type = 1) AND (OLD.consult_id IS NOT NEW.consult_id OR OLD.type IS NOT NEW.type OR OLD.reviewer_id IS NOT NEW.reviewer_id) BEGIN
    DELETE FROM case_experts WHERE case_id IN (OLD.consult_id, NEW.consult_id);
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id IN (OLD.consult_id, NEW.consult_id);
END;
CREATE TRIGGER case_experts_supplement_delete AFTER DELETE ON diagnoses WHEN OLD.type = 1 AND OLD.reviewer_id IS NOT NULL BEGIN
    DELETE FROM case_experts WHERE case_id = OLD.consult_id;
    INSERT OR IGNORE INTO case_experts (expert_id, case_id) SELECT expert_id, case_id FROM case_expert_sources WHERE case_id = OLD.consult_id;
END;
