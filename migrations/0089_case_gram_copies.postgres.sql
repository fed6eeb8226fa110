-- Migration 0089 changes SQLite only (the cases of each one-character
-- search piece with copies of their list columns; PostgreSQL counts such
-- searches through consultation_gram_tallies, migration 0084).
SELECT 1;
