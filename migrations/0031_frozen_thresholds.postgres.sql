-- The frozen clock's thresholds of each center, in minutes: amber from
-- frozen_amber_min, red from frozen_red_min after the slides arrived.
ALTER TABLE centers ADD COLUMN frozen_amber_min INTEGER NOT NULL DEFAULT 15;
ALTER TABLE centers ADD COLUMN frozen_red_min INTEGER NOT NULL DEFAULT 20;
