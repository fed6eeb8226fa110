-- Migration 0079 is PostgreSQL's GIN index of each case's grams (see
-- 0079_case_gram_index.postgres.sql); SQLite reads consultation_grams.
SELECT 1;
