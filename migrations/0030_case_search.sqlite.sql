-- Search of the case lists (any part of a consultation number, pathology
-- number or patient name) read by a trigram index, kept by triggers in the
-- transaction that writes the case. Texts of one or two characters have no
-- trigram; those searches still scan the cases with LIKE.
CREATE VIRTUAL TABLE consultations_search USING fts5(consult_no, pathology_number, patient_name,
    content='consultations', content_rowid='id', tokenize='trigram');
INSERT INTO consultations_search(consultations_search) VALUES ('rebuild');
CREATE TRIGGER consultations_search_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO consultations_search(rowid, consult_no, pathology_number, patient_name) VALUES (NEW.id, NEW.consult_no, NEW.pathology_number, NEW.patient_name);
END;
CREATE TRIGGER consultations_search_delete AFTER DELETE ON consultations BEGIN
    INSERT INTO consultations_search(consultations_search, rowid, consult_no, pathology_number, patient_name) VALUES ('delete', OLD.id, OLD.consult_no, OLD.pathology_number, OLD.patient_name);
END;
CREATE TRIGGER consultations_search_update AFTER UPDATE OF consult_no, pathology_number, patient_name ON consultations BEGIN
    INSERT INTO consultations_search(consultations_search, rowid, consult_no, pathology_number, patient_name) VALUES ('delete', OLD.id, OLD.consult_no, OLD.pathology_number, OLD.patient_name);
    INSERT INTO consultations_search(rowid, consult_no, pathology_number, patient_name) VALUES (NEW.id, NEW.consult_no, NEW.pathology_number, NEW.patient_name);
END;
