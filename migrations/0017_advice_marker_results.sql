-- Results of special exams (spec 2 §7 /advice/detail_store): once the site
-- executed an exam or a third party answered it, the assigned expert records
-- the result of each marker ([{marker, result}] as JSON) and an overall
-- interpretation; the report's immunohistochemistry section prints them.
ALTER TABLE advices ADD COLUMN marker_results {{JSON}} NOT NULL DEFAULT '[]';
ALTER TABLE advices ADD COLUMN interpretation TEXT NOT NULL DEFAULT '';
ALTER TABLE advices ADD COLUMN results_by BIGINT REFERENCES users(id);
ALTER TABLE advices ADD COLUMN results_at {{TS}};
