-- The expert's handwritten signature, printed beside their name on the
-- reports they sign (spec 2 §3 Expert: signature). PNG or JPEG, small
-- (checked on upload), kept with the user so a change is one write.
ALTER TABLE users ADD COLUMN signature {{BLOB}};
ALTER TABLE users ADD COLUMN signature_type TEXT NOT NULL DEFAULT '';
