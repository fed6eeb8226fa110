-- Migration 0087 changes PostgreSQL only (the planner's statistics of the
-- search pieces).
SELECT 1;
