-- A report rule's message in English beside the one in the template's own
-- language (shown in the reader's language; empty: the message itself).
ALTER TABLE struct_rules ADD COLUMN message_en TEXT NOT NULL DEFAULT '';
