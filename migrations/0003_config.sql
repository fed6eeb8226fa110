-- Configuration records: library tree lookups, the default number of a
-- charge item, at most one default timeout, and the pathology numbers in use
-- per library (next-number suggestions).

ALTER TABLE charge_items ADD COLUMN number INTEGER NOT NULL DEFAULT 1;

CREATE INDEX libraries_parent ON libraries(parent_id);

CREATE UNIQUE INDEX timeout_configs_one_default ON timeout_configs(is_default)
    WHERE is_default = 1 AND deleted_at IS NULL;

CREATE INDEX consultations_library_number ON consultations(library_id, pathology_number);
