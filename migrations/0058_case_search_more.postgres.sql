-- Search of the case lists, continued (issue 17). The ID number (in the
-- registration, case_data) gets a trigram index of its own, read by the
-- LIKE over the same expression; one- and two-character texts with a
-- character beyond ASCII (a Chinese surname, a given name) read
-- consultation_grams, the one- and two-character pieces of a case's
-- searched texts that hold such a character, kept by a trigger in the
-- transaction that writes the case. Hospital names are searched in
-- hospitals and the cases read by hospital id: nothing to keep.
CREATE INDEX consultations_id_number ON consultations USING gin ((case_data::jsonb ->> 'id_number') public.gin_trgm_ops);

CREATE TABLE consultation_grams (
    gram TEXT COLLATE "C" NOT NULL,
    case_id BIGINT NOT NULL,
    PRIMARY KEY (gram, case_id)
);
-- The grams of case c, lower-cased.
CREATE FUNCTION consultation_grams_of(c consultations) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT lower(substr(t.s, p.n, k.k))
    FROM unnest(ARRAY[c.patient_name, c.consult_no, c.pathology_number, COALESCE(c.case_data::jsonb ->> 'id_number', '')]) t(s),
         generate_series(1, length(t.s)) p(n), (VALUES (1), (2)) k(k)
    WHERE p.n + k.k - 1 <= length(t.s) AND octet_length(substr(t.s, p.n, k.k)) > k.k
$$;
INSERT INTO consultation_grams (gram, case_id) SELECT g, c.id FROM consultations c, consultation_grams_of(c) g;
CREATE FUNCTION consultation_grams_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM consultation_grams WHERE case_id = OLD.id AND gram IN (SELECT consultation_grams_of(OLD));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO consultation_grams (gram, case_id) SELECT g, NEW.id FROM consultation_grams_of(NEW) g;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER consultation_grams_write AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION consultation_grams_sync();
CREATE TRIGGER consultation_grams_update AFTER UPDATE OF patient_name, consult_no, pathology_number, case_data ON consultations FOR EACH ROW
    WHEN (OLD.patient_name IS DISTINCT FROM NEW.patient_name OR OLD.consult_no IS DISTINCT FROM NEW.consult_no OR OLD.pathology_number IS DISTINCT FROM NEW.pathology_number
          OR (OLD.case_data::jsonb ->> 'id_number') IS DISTINCT FROM (NEW.case_data::jsonb ->> 'id_number'))
    EXECUTE FUNCTION consultation_grams_sync();
