-- A structured template's name in English beside the one in the template's
-- own language (shown in the reader's language; empty: the name itself). A
-- splice rule's English sentence sits in its definition (pattern_en).
ALTER TABLE struct_templates ADD COLUMN name_en TEXT NOT NULL DEFAULT '';
