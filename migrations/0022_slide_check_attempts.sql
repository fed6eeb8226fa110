-- How many times the background check of a slide has started. A check cut
-- short by the process dying (a hostile file exhausting memory, a crash) is
-- retried at the next start, but only a bounded number of times: then the
-- slide is marked failed with its reason instead of being re-queued forever.
ALTER TABLE slides ADD COLUMN check_attempts INTEGER NOT NULL DEFAULT 0;
