-- Diagnosis terminology (spec 2 "diagnosis templates and terminology"):
-- short standard phrases an expert inserts while writing, grouped by
-- category. Like templates, a public term (owner_id NULL) is the
-- administrators' and offered to every expert; the others are their owner's.
CREATE TABLE diagnosis_terms (
    id {{ID}},
    category TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    owner_id BIGINT REFERENCES users(id),
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
-- One text per category and owner (public terms count as owner 0).
CREATE UNIQUE INDEX diagnosis_terms_text ON diagnosis_terms(COALESCE(owner_id, 0), category, text) WHERE deleted_at IS NULL;
CREATE INDEX diagnosis_terms_owner ON diagnosis_terms(owner_id);
