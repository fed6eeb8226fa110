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

-- The figures of a case: its instants, each where it counts (the
-- definitions of internal/statistics figures.go, checked against it by
-- TestStatisticsRollups).
CREATE FUNCTION stat_figures_of(c consultations) RETURNS TABLE (figure TEXT, at TIMESTAMPTZ) LANGUAGE sql STABLE AS $$
    SELECT 'diagnosed', d.created_at FROM diagnoses d WHERE d.consult_id = c.id AND d.type = 0 AND d.version = 1 AND c.deleted_at IS NULL
    UNION ALL
    SELECT v.f, v.a FROM (VALUES
        ('registered', c.created_at),
        ('submitted', c.submitted_at),
        ('assigned', c.assigned_at),
        ('published', c.published_at),
        ('timed_out', CASE WHEN c.published_at IS NULL OR c.published_at > c.timeout_at THEN c.timeout_at END),
        ('in_time', CASE WHEN c.timeout_at IS NOT NULL AND c.published_at <= c.timeout_at THEN c.published_at END),
        ('with_deadline', CASE WHEN c.timeout_at IS NOT NULL THEN c.published_at END),
        ('in_progress', CASE WHEN c.published_at IS NULL AND c.status IN (1, 2) THEN c.assigned_at END)
    ) AS v(f, a) WHERE v.a IS NOT NULL AND c.deleted_at IS NULL
$$;
CREATE VIEW stat_case_figures AS
    SELECT c.id, f.figure, f.at, COALESCE(c.center_id, 0) AS center_id, c.hospital_id, COALESCE(c.expert_id, 0) AS expert_id, COALESCE(c.library_id, 0) AS library_id
    FROM consultations c CROSS JOIN LATERAL stat_figures_of(c) f;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => (SELECT offset_minutes FROM stat_zone)), 'YYYY-MM-DD'), center_id,
        CASE WHEN grain = 2 THEN -1 ELSE hospital_id END, CASE WHEN grain = 1 THEN -1 ELSE expert_id END, CASE WHEN grain = 0 THEN library_id ELSE -1 END, COUNT(*)
    FROM stat_case_figures CROSS JOIN stat_grains GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- A case that changes moves its old figures out of their days and its new
-- ones in, in one statement: figures that did not move cancel out and are
-- not written, and the rows are locked in key order, so two cases moving
-- at once wait for each other instead of deadlocking.
CREATE FUNCTION stat_daily_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT x.figure, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), x.center_id,
            CASE WHEN g.grain = 2 THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE x.expert_id END, CASE WHEN g.grain = 0 THEN x.library_id ELSE -1 END, SUM(x.d)
        FROM (
            SELECT f.figure, f.at, COALESCE(OLD.center_id, 0) AS center_id, OLD.hospital_id AS hospital_id, COALESCE(OLD.expert_id, 0) AS expert_id, COALESCE(OLD.library_id, 0) AS library_id, -1 AS d
                FROM stat_figures_of(OLD) f WHERE TG_OP <> 'INSERT'
            UNION ALL
            SELECT f.figure, f.at, COALESCE(NEW.center_id, 0), NEW.hospital_id, COALESCE(NEW.expert_id, 0), COALESCE(NEW.library_id, 0), 1
                FROM stat_figures_of(NEW) f WHERE TG_OP <> 'DELETE'
        ) x CROSS JOIN stat_grains g
        GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(x.d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER consultations_stat_insert AFTER INSERT OR DELETE ON consultations FOR EACH ROW EXECUTE FUNCTION stat_daily_bump();
CREATE TRIGGER consultations_stat_update AFTER UPDATE ON consultations FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.assigned_at IS DISTINCT FROM NEW.assigned_at OR OLD.published_at IS DISTINCT FROM NEW.published_at OR OLD.timeout_at IS DISTINCT FROM NEW.timeout_at OR OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.center_id IS DISTINCT FROM NEW.center_id OR OLD.hospital_id IS DISTINCT FROM NEW.hospital_id OR OLD.expert_id IS DISTINCT FROM NEW.expert_id OR OLD.library_id IS DISTINCT FROM NEW.library_id) EXECUTE FUNCTION stat_daily_bump();

-- A first diagnosis counts on its case's center, hospital, expert and
-- library (a case that moves takes its diagnoses along, above).
CREATE FUNCTION stat_diagnosis_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain = 2 THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain = 1 THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain = 0 THEN COALESCE(c.library_id, 0) ELSE -1 END, SUM(x.d)
        FROM (
            SELECT OLD.consult_id AS consult_id, OLD.created_at AS at, -1 AS d WHERE TG_OP <> 'INSERT' AND OLD.type = 0 AND OLD.version = 1
            UNION ALL
            SELECT NEW.consult_id, NEW.created_at, 1 WHERE TG_OP <> 'DELETE' AND NEW.type = 0 AND NEW.version = 1
        ) x JOIN consultations c ON c.id = x.consult_id AND c.deleted_at IS NULL CROSS JOIN stat_grains g
        GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(x.d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
        ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER diagnoses_stat_insert AFTER INSERT OR DELETE ON diagnoses FOR EACH ROW EXECUTE FUNCTION stat_diagnosis_bump();
CREATE TRIGGER diagnoses_stat_update AFTER UPDATE ON diagnoses FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.version IS DISTINCT FROM NEW.version OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.consult_id IS DISTINCT FROM NEW.consult_id) EXECUTE FUNCTION stat_diagnosis_bump();

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
