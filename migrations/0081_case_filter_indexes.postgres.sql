-- Migration 0081 changes SQLite only (its indexes of the case filters).
SELECT 1;
