-- Migration 0092 changes SQLite only (more columns copied to
-- consultation_gram_cases, migration 0089; PostgreSQL counts one-character
-- searches through consultation_gram_tallies, migration 0084).
SELECT 1;
