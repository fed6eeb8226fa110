-- A share may show the case's slide annotations, read-only (issue 15).
ALTER TABLE shares ADD COLUMN with_annotations INTEGER NOT NULL DEFAULT 0;
