-- Search of the case lists, continued (issue 17). The ID number (in the
-- registration, case_data) gets a trigram index of its own; one- and
-- two-character texts with a character beyond ASCII (a Chinese surname, a
-- given name) read consultation_grams, the one- and two-character pieces
-- of a case's searched texts that hold such a character. Both are kept by
-- triggers in the transaction that writes the case. Hospital names are
-- searched in hospitals and the cases read by hospital id: nothing to keep.
CREATE VIRTUAL TABLE consultations_id_search USING fts5(id_number, content='', tokenize='trigram');
INSERT INTO consultations_id_search(rowid, id_number) SELECT id, COALESCE(json_extract(case_data, '$.id_number'), '') FROM consultations;
CREATE TRIGGER consultations_id_search_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO consultations_id_search(rowid, id_number) VALUES (NEW.id, COALESCE(json_extract(NEW.case_data, '$.id_number'), ''));
END;
CREATE TRIGGER consultations_id_search_delete AFTER DELETE ON consultations BEGIN
    INSERT INTO consultations_id_search(consultations_id_search, rowid, id_number) VALUES ('delete', OLD.id, COALESCE(json_extract(OLD.case_data, '$.id_number'), ''));
END;
CREATE TRIGGER consultations_id_search_update AFTER UPDATE OF case_data ON consultations
WHEN json_extract(OLD.case_data, '$.id_number') IS NOT json_extract(NEW.case_data, '$.id_number') BEGIN
    INSERT INTO consultations_id_search(consultations_id_search, rowid, id_number) VALUES ('delete', OLD.id, COALESCE(json_extract(OLD.case_data, '$.id_number'), ''));
    INSERT INTO consultations_id_search(rowid, id_number) VALUES (NEW.id, COALESCE(json_extract(NEW.case_data, '$.id_number'), ''));
END;

-- Character positions 1…1000 (the searched texts are at most 50).
CREATE TABLE gram_positions (n INTEGER PRIMARY KEY);
WITH RECURSIVE p(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM p WHERE n < 1000) INSERT INTO gram_positions (n) SELECT n FROM p;
CREATE TABLE consultation_grams (
    gram TEXT NOT NULL,
    case_id INTEGER NOT NULL,
    PRIMARY KEY (gram, case_id)
) WITHOUT ROWID;
-- The grams of each case as its row holds them now, lower-cased as LIKE
-- folds them (ASCII only): read with case_id = ? by the triggers.
CREATE VIEW consultation_gram_source AS
SELECT t.case_id, lower(substr(t.s, p.n, k.k)) AS gram
FROM (SELECT id AS case_id, patient_name AS s FROM consultations
      UNION ALL SELECT id, consult_no FROM consultations
      UNION ALL SELECT id, pathology_number FROM consultations
      UNION ALL SELECT id, COALESCE(json_extract(case_data, '$.id_number'), '') FROM consultations) t
JOIN gram_positions p ON p.n <= length(t.s)
JOIN (SELECT 1 AS k UNION ALL SELECT 2) k ON p.n + k.k - 1 <= length(t.s)
WHERE length(CAST(substr(t.s, p.n, k.k) AS BLOB)) > k.k;
INSERT OR IGNORE INTO consultation_grams (gram, case_id) SELECT gram, case_id FROM consultation_gram_source ORDER BY gram, case_id;
-- The old grams go before the row changes, the new ones after.
CREATE TRIGGER consultation_grams_insert AFTER INSERT ON consultations BEGIN
    INSERT OR IGNORE INTO consultation_grams (gram, case_id) SELECT gram, case_id FROM consultation_gram_source WHERE case_id = NEW.id;
END;
CREATE TRIGGER consultation_grams_delete BEFORE DELETE ON consultations BEGIN
    DELETE FROM consultation_grams WHERE case_id = OLD.id AND gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = OLD.id);
END;
CREATE TRIGGER consultation_grams_update_old BEFORE UPDATE OF patient_name, consult_no, pathology_number, case_data ON consultations BEGIN
    DELETE FROM consultation_grams WHERE case_id = OLD.id AND gram IN (SELECT gram FROM consultation_gram_source WHERE case_id = OLD.id);
END;
CREATE TRIGGER consultation_grams_update_new AFTER UPDATE OF patient_name, consult_no, pathology_number, case_data ON consultations BEGIN
    INSERT OR IGNORE INTO consultation_grams (gram, case_id) SELECT gram, case_id FROM consultation_gram_source WHERE case_id = NEW.id;
END;
