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
CREATE UNIQUE INDEX consultation_tallies_key ON consultation_tallies(hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at) NULLS NOT DISTINCT;
INSERT INTO consultation_tallies (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n)
    SELECT c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, COUNT(*) FROM consultations c GROUP BY c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END;

-- bump adds d to the tally of case c's key.
CREATE FUNCTION consultation_tally_bump(c consultations, d BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO consultation_tallies AS t (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n) VALUES (c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, d)
        ON CONFLICT (hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at) DO UPDATE SET n = t.n + d;
$$;

-- A case that changes key moves one from its old tally to its new one. The
-- two tally rows are always locked in key order, so two cases moving in
-- opposite directions at once wait for each other instead of deadlocking.
CREATE FUNCTION consultation_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_first BOOLEAN := TRUE;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        old_first := COALESCE(ROW(COALESCE(OLD.hospital_id, -1), COALESCE(OLD.center_id, -1), COALESCE(OLD.expert_id, -1), OLD.status, OLD.is_draft, OLD.is_recall, OLD.is_return, OLD.is_lock, OLD.supplement_review, OLD.print_deliver_status, OLD.deleted_at IS NOT NULL)
                  <= ROW(COALESCE(NEW.hospital_id, -1), COALESCE(NEW.center_id, -1), COALESCE(NEW.expert_id, -1), NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status, NEW.deleted_at IS NOT NULL), TRUE);
    END IF;
    IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND old_first) THEN
        PERFORM consultation_tally_bump(OLD, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM consultation_tally_bump(NEW, 1);
    END IF;
    IF TG_OP = 'UPDATE' AND NOT old_first THEN
        PERFORM consultation_tally_bump(OLD, -1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER consultations_tally_insert AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION consultation_tally();
CREATE TRIGGER consultations_tally_update AFTER UPDATE ON consultations FOR EACH ROW WHEN (OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.status IS DISTINCT FROM NEW.status OR OLD.is_draft IS DISTINCT FROM NEW.is_draft OR OLD.is_recall IS DISTINCT FROM NEW.is_recall OR OLD.is_return IS DISTINCT FROM NEW.is_return OR OLD.is_lock IS DISTINCT FROM NEW.is_lock OR OLD.supplement_review IS DISTINCT FROM NEW.supplement_review OR OLD.print_deliver_status IS DISTINCT FROM NEW.print_deliver_status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION consultation_tally();
