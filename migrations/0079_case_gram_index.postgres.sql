-- Search of the case lists by one or two characters beyond ASCII (issue
-- 17): the grams of consultation_grams (migration 0058) also as a GIN
-- index over an array of each case's grams. A gram's cases are then a
-- bitmap the planner ANDs with the scope's and the tab's indexes (a
-- site's cases of a surname: the 196 of its 20,000 read instead of the
-- 9,860 of all hospitals), and ANALYZE keeps the expression's statistics,
-- so the planner knows how many cases a gram stands for and chooses
-- between walking the sort's index and reading the matches. The array is
-- consultation_grams_of's grams; nothing to keep by hand.
CREATE FUNCTION consultation_gram_array(patient_name text, consult_no text, pathology_number text, id_number text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT COALESCE(array_agg(DISTINCT lower(substr(t.s, p.n, k.k))), '{}')
    FROM unnest(ARRAY[patient_name, consult_no, pathology_number, COALESCE(id_number, '')]) t(s),
         generate_series(1, length(t.s)) p(n), (VALUES (1), (2)) k(k)
    WHERE p.n + k.k - 1 <= length(t.s) AND octet_length(substr(t.s, p.n, k.k)) > k.k
$$;
CREATE INDEX consultations_grams ON consultations USING gin (consultation_gram_array(patient_name, consult_no, pathology_number, case_data::jsonb ->> 'id_number'));
ANALYZE consultations;
