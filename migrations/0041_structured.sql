-- Structured report templates (spec 2 §3 struct_template, rule, symbol):
-- fields an expert fills in (fields is a JSON list of structured.Field),
-- per report kind, optionally for one library; their rules (definition is
-- structured.Definition as JSON); and the special characters offered in the
-- diagnosis editor. Deleted templates keep their row (deleted_at) so a
-- diagnosis saved with one still reads.
CREATE TABLE struct_templates (
    id {{ID}},
    name TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'routine',
    library_id BIGINT REFERENCES libraries(id),
    sort_order INTEGER NOT NULL DEFAULT 0,
    enabled SMALLINT NOT NULL DEFAULT 1,
    fields {{JSON}} NOT NULL,
    deleted_at {{TS}},
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX struct_templates_kind ON struct_templates(kind, sort_order);
CREATE TABLE struct_rules (
    id {{ID}},
    template_id BIGINT NOT NULL REFERENCES struct_templates(id),
    type TEXT NOT NULL,
    definition {{JSON}} NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    sort_order INTEGER NOT NULL DEFAULT 0,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE INDEX struct_rules_template ON struct_rules(template_id, sort_order);
CREATE TABLE symbols (
    id {{ID}},
    text TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX symbols_text ON symbols(text);
-- The structured values an expert filled in for a diagnosis (the template
-- and a JSON object of field key to value); publishing checks them again.
ALTER TABLE diagnoses ADD COLUMN struct_template_id BIGINT REFERENCES struct_templates(id);
ALTER TABLE diagnoses ADD COLUMN struct_values {{JSON}} NOT NULL DEFAULT '{}';
