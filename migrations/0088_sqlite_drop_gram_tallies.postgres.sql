-- Migration 0088 changes SQLite only (it drops the one-character piece
-- tallies of migration 0084 there; PostgreSQL keeps and reads them).
SELECT 1;
