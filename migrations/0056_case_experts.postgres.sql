-- The cases each expert is named on (issue 17): the one assigned, the
-- reviewer of the diagnosis, the one who returned it, the one who handed it
-- over, those invited (any answer) and the reviewers of its supplementary
-- reports. The expert's case scope reads this table by index instead of an
-- OR of six conditions over every case. Triggers keep it in the
-- transaction that writes any of those: each write recomputes the members
-- of the one case it touches from case_expert_sources, with that case's row
-- locked so that two writes to one case recompute one after the other.
CREATE TABLE case_experts (
    expert_id BIGINT NOT NULL,
    case_id BIGINT NOT NULL,
    PRIMARY KEY (expert_id, case_id)
);

CREATE VIEW case_expert_sources (case_id, expert_id) AS
    SELECT id, expert_id FROM consultations WHERE expert_id IS NOT NULL
    UNION ALL SELECT id, reviewer_id FROM consultations WHERE reviewer_id IS NOT NULL
    UNION ALL SELECT id, returned_by FROM consultations WHERE returned_by IS NOT NULL
    UNION ALL SELECT id, handover_from FROM consultations WHERE handover_from IS NOT NULL
    UNION ALL SELECT consult_id, invitee_id FROM invitations
    UNION ALL SELECT consult_id, reviewer_id FROM diagnoses WHERE type = 1 AND reviewer_id IS NOT NULL;

INSERT INTO case_experts (expert_id, case_id) SELECT DISTINCT expert_id, case_id FROM case_expert_sources;
CREATE INDEX case_experts_case ON case_experts(case_id);
ANALYZE case_experts;

-- case_experts_refresh recomputes the members of one case.
CREATE FUNCTION case_experts_refresh(c BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF c IS NULL THEN
        RETURN;
    END IF;
    PERFORM 1 FROM consultations WHERE id = c FOR UPDATE;
    DELETE FROM case_experts WHERE case_id = c;
    INSERT INTO case_experts (expert_id, case_id) SELECT DISTINCT expert_id, case_id FROM case_expert_sources WHERE case_id = c
        ON CONFLICT DO NOTHING;
END
$$;

CREATE FUNCTION case_experts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_case BIGINT;
    new_case BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'consultations' THEN
        IF TG_OP = 'DELETE' THEN
            DELETE FROM case_experts WHERE case_id = OLD.id;
            RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' THEN
            old_case := OLD.id;
        END IF;
        new_case := NEW.id;
    ELSE
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            old_case := OLD.consult_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
            new_case := NEW.consult_id;
        END IF;
    END IF;
    -- In id order, so that two writes touching the same two cases lock them alike.
    PERFORM case_experts_refresh(LEAST(old_case, new_case));
    IF old_case IS DISTINCT FROM new_case THEN
        PERFORM case_experts_refresh(GREATEST(old_case, new_case));
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER case_experts_case_insert AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_case_update AFTER UPDATE ON consultations FOR EACH ROW
    WHEN (OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.reviewer_id IS DISTINCT FROM NEW.reviewer_id OR OLD.returned_by IS DISTINCT FROM NEW.returned_by
        OR OLD.handover_from IS DISTINCT FROM NEW.handover_from OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_invitation_write AFTER INSERT OR DELETE ON invitations FOR EACH ROW EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_invitation_update AFTER UPDATE ON invitations FOR EACH ROW
    WHEN (OLD.consult_id IS DISTINCT FROM NEW.consult_id OR OLD.invitee_id IS DISTINCT FROM NEW.invitee_id)
    EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_supplement_insert AFTER INSERT ON diagnoses FOR EACH ROW
    WHEN (NEW.type = 1 AND NEW.reviewer_id IS NOT NULL) EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_supplement_delete AFTER DELETE ON diagnoses FOR EACH ROW
    WHEN (OLD.type = 1 AND OLD.reviewer_id IS NOT NULL) EXECUTE FUNCTION case_experts_follow();
CREATE TRIGGER case_experts_supplement_update AFTER UPDATE ON diagnoses FOR EACH ROW
    WHEN ((OLD.type = 1 OR NEW.type = 1) AND (OLD.consult_id IS DISTINCT FROM NEW.consult_id OR OLD.type IS DISTINCT FROM NEW.type OR OLD.reviewer_id IS DISTINCT FROM NEW.reviewer_id))
    EXECUTE FUNCTION case_experts_follow();
