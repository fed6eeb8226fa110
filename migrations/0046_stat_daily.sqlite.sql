-- Daily rollups of the statistics (issue 14): per local day, figure,
-- center, hospital, expert and library (the case kind is the library's),
-- the number of cases whose instant of that figure falls on that day (and of
-- first diagnoses). They are kept exact by triggers in the transaction that
-- writes the case or the diagnosis, so a
-- screen sums a few thousand rows for three years instead of reading a
-- million cases. A missing center, expert or library is 0. The local day is
-- the instant shifted by stat_zone's offset: the statistics service sets it
-- to the configured zone's (TELEPATH_TIMEZONE) and rebuilds the rollups
-- when it changes; a zone with daylight saving time reads the cases instead.
CREATE TABLE stat_zone (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    offset_minutes INTEGER NOT NULL
);
INSERT INTO stat_zone (id, offset_minutes) VALUES (1, 480);

CREATE TABLE stat_daily (
    figure TEXT NOT NULL,
    grain INTEGER NOT NULL,
    day TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    n BIGINT NOT NULL
);
CREATE UNIQUE INDEX stat_daily_key ON stat_daily(figure, grain, day, center_id, hospital_id, expert_id, library_id);

-- Each figure is kept at three grains, so that a screen reads as few rows as
-- its question needs: 0 every column; 1 per center and hospital (expert and
-- library -1); 2 per center and expert (hospital and library -1).
CREATE VIEW stat_grains AS SELECT 0 AS grain UNION ALL SELECT 1 UNION ALL SELECT 2;

-- The figures of each case: its instants, each where it counts (the
-- definitions of internal/statistics figures.go, checked against it by
-- TestStatisticsRollups).
CREATE VIEW stat_case_figures AS
    SELECT id, 'registered' AS figure, created_at AS at, COALESCE(center_id, 0) AS center_id, hospital_id, COALESCE(expert_id, 0) AS expert_id, COALESCE(library_id, 0) AS library_id
        FROM consultations WHERE deleted_at IS NULL AND created_at IS NOT NULL
    UNION ALL SELECT id, 'submitted', submitted_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND submitted_at IS NOT NULL
    UNION ALL SELECT id, 'assigned', assigned_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND assigned_at IS NOT NULL
    UNION ALL SELECT id, 'published', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND published_at IS NOT NULL
    UNION ALL SELECT id, 'timed_out', timeout_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND (published_at IS NULL OR published_at > timeout_at)
    UNION ALL SELECT id, 'in_time', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND published_at <= timeout_at
    UNION ALL SELECT id, 'with_deadline', published_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND timeout_at IS NOT NULL AND published_at IS NOT NULL
    UNION ALL SELECT id, 'in_progress', assigned_at, COALESCE(center_id, 0), hospital_id, COALESCE(expert_id, 0), COALESCE(library_id, 0)
        FROM consultations WHERE deleted_at IS NULL AND assigned_at IS NOT NULL AND published_at IS NULL AND status IN (1, 2)
    UNION ALL SELECT c.id, 'diagnosed', d.created_at, COALESCE(c.center_id, 0), c.hospital_id, COALESCE(c.expert_id, 0), COALESCE(c.library_id, 0)
        FROM consultations c JOIN diagnoses d ON d.consult_id = c.id WHERE c.deleted_at IS NULL AND d.type = 0 AND d.version = 1;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
        CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, COUNT(*)
    FROM stat_case_figures CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- A case's old figures leave their days before it changes, its new ones
-- join theirs after.
CREATE TRIGGER consultations_stat_insert AFTER INSERT ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, 1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_stat_delete BEFORE DELETE ON consultations BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, -1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_stat_leave BEFORE UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, -1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = OLD.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER consultations_stat_join AFTER UPDATE ON consultations WHEN OLD.created_at IS NOT NEW.created_at OR OLD.submitted_at IS NOT NEW.submitted_at OR OLD.assigned_at IS NOT NEW.assigned_at OR OLD.published_at IS NOT NEW.published_at OR OLD.timeout_at IS NOT NEW.timeout_at OR OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.center_id IS NOT NEW.center_id OR OLD.hospital_id IS NOT NEW.hospital_id OR OLD.expert_id IS NOT NEW.expert_id OR OLD.library_id IS NOT NEW.library_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT figure, grain, strftime('%Y-%m-%d', at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), center_id,
            CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, 1
        FROM stat_case_figures CROSS JOIN stat_grains WHERE id = NEW.id
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;

-- A first diagnosis counts on its case's center, hospital, expert and
-- library (a case that moves takes its diagnoses along, above).
CREATE TRIGGER diagnoses_stat_insert AFTER INSERT ON diagnoses WHEN NEW.type = 0 AND NEW.version = 1 BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', NEW.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain = 2 THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain = 0 THEN COALESCE(c.library_id, 0) ELSE -1 END, 1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = NEW.consult_id AND c.deleted_at IS NULL
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_delete AFTER DELETE ON diagnoses WHEN OLD.type = 0 AND OLD.version = 1 BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', OLD.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain = 2 THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain = 0 THEN COALESCE(c.library_id, 0) ELSE -1 END, -1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = OLD.consult_id AND c.deleted_at IS NULL
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER diagnoses_stat_update AFTER UPDATE ON diagnoses WHEN OLD.type IS NOT NEW.type OR OLD.version IS NOT NEW.version OR OLD.created_at IS NOT NEW.created_at OR OLD.consult_id IS NOT NEW.consult_id BEGIN
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', OLD.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain = 2 THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain = 0 THEN COALESCE(c.library_id, 0) ELSE -1 END, -1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = OLD.consult_id AND c.deleted_at IS NULL AND OLD.type = 0 AND OLD.version = 1
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
    INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, strftime('%Y-%m-%d', NEW.created_at, (SELECT offset_minutes FROM stat_zone) || ' minutes'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain = 2 THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain = 0 THEN COALESCE(c.library_id, 0) ELSE -1 END, 1
        FROM consultations c CROSS JOIN stat_grains g WHERE c.id = NEW.consult_id AND c.deleted_at IS NULL AND NEW.type = 0 AND NEW.version = 1
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = n + excluded.n;
END;

-- Turnaround percentiles read the published cases of the period: this
-- index holds every column they read, so a period is one range scan of it.
CREATE INDEX consultations_turnaround ON consultations(published_at, submitted_at, assigned_at, center_id, hospital_id, expert_id, library_id) WHERE deleted_at IS NULL;
-- The reasons given for late reports: the few cases that have one.
CREATE INDEX consultations_timeout_reason ON consultations(published_at, timeout_reason) WHERE timeout_reason <> '' AND deleted_at IS NULL;
-- The figures read live (today's part of the rollups' figures, and those
-- without rollups) find their rows by their instants, not by reading the
-- whole table.
CREATE INDEX diagnoses_first_created ON diagnoses(created_at) WHERE type = 0 AND version = 1;
CREATE INDEX diagnoses_supplement_published ON diagnoses(published_at) WHERE type = 1;
CREATE INDEX invitations_replied ON invitations(replied_at);
CREATE INDEX frozen_appointments_concordance ON frozen_appointments(concordance_at);
