-- The exact counts of a search of one character beyond ASCII (a surname's
-- character, issue 17): the case tallies of migration 0029 also by each
-- one-character piece of a case's searched texts (consultation_grams'
-- one-character grams, migration 0058). A list's total and its tab counts
-- under such a search then sum the tally rows of the character, which lie
-- together in its index, instead of reading each matching case (王: 9,860
-- cases at 1M, scattered over the table). Kept by a trigger in the
-- transaction that writes the case, as the case tallies are.
CREATE TABLE consultation_gram_tallies (
    gram TEXT COLLATE "C" NOT NULL,
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
    SELECT g.gram, c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, COUNT(*)
    FROM consultation_grams g JOIN consultations c ON c.id = g.case_id WHERE char_length(g.gram) = 1
    GROUP BY g.gram, c.hospital_id, c.center_id, c.expert_id, c.status, c.is_draft, c.is_recall, c.is_return, c.is_lock, c.supplement_review, c.print_deliver_status, CASE WHEN c.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
CREATE UNIQUE INDEX consultation_gram_tallies_key ON consultation_gram_tallies(gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at) NULLS NOT DISTINCT;
ANALYZE consultation_gram_tallies;

-- A case's one-character grams leave the tallies of its old key and join
-- those of its new one, in one statement that locks the tally rows in key
-- order (two cases moving at once wait for each other, no deadlock).
CREATE FUNCTION consultation_gram_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO consultation_gram_tallies AS t (gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at, n)
    SELECT d.gram, d.hospital_id, d.center_id, d.expert_id, d.status, d.is_draft, d.is_recall, d.is_return, d.is_lock, d.supplement_review, d.print_deliver_status, d.deleted_at, SUM(d.n)
    FROM (SELECT g AS gram, OLD.hospital_id, OLD.center_id, OLD.expert_id, OLD.status, OLD.is_draft, OLD.is_recall, OLD.is_return, OLD.is_lock, OLD.supplement_review, OLD.print_deliver_status,
                 CASE WHEN OLD.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END AS deleted_at, -1 AS n
          FROM consultation_grams_of(OLD) g WHERE TG_OP <> 'INSERT' AND char_length(g) = 1
          UNION ALL
          SELECT g, NEW.hospital_id, NEW.center_id, NEW.expert_id, NEW.status, NEW.is_draft, NEW.is_recall, NEW.is_return, NEW.is_lock, NEW.supplement_review, NEW.print_deliver_status,
                 CASE WHEN NEW.deleted_at IS NULL THEN NULL ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00' END, 1
          FROM consultation_grams_of(NEW) g WHERE TG_OP <> 'DELETE' AND char_length(g) = 1) d
    GROUP BY d.gram, d.hospital_id, d.center_id, d.expert_id, d.status, d.is_draft, d.is_recall, d.is_return, d.is_lock, d.supplement_review, d.print_deliver_status, d.deleted_at
    HAVING SUM(d.n) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT (gram, hospital_id, center_id, expert_id, status, is_draft, is_recall, is_return, is_lock, supplement_review, print_deliver_status, deleted_at) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER consultations_gram_tally_write AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION consultation_gram_tally();
CREATE TRIGGER consultations_gram_tally_update AFTER UPDATE ON consultations FOR EACH ROW
    WHEN (OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.is_draft IS DISTINCT FROM NEW.is_draft OR OLD.is_recall IS DISTINCT FROM NEW.is_recall OR OLD.is_return IS DISTINCT FROM NEW.is_return OR OLD.is_lock IS DISTINCT FROM NEW.is_lock
          OR OLD.supplement_review IS DISTINCT FROM NEW.supplement_review OR OLD.print_deliver_status IS DISTINCT FROM NEW.print_deliver_status OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
          OR OLD.patient_name IS DISTINCT FROM NEW.patient_name OR OLD.consult_no IS DISTINCT FROM NEW.consult_no OR OLD.pathology_number IS DISTINCT FROM NEW.pathology_number
          OR (OLD.case_data::jsonb ->> 'id_number') IS DISTINCT FROM (NEW.case_data::jsonb ->> 'id_number'))
    EXECUTE FUNCTION consultation_gram_tally();
