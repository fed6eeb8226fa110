-- A fourth grain of the rollups (issue 14): per center and library
-- (hospital and expert -1), for the screens that filter or count by case
-- kind or library (quality and timeliness), which read every column's
-- grain before: over three years that is a million rows a figure, this
-- grain a few thousand. The grains are now 0 every column; 1 per center
-- and hospital; 2 per center and expert; 3 per center and library. The
-- triggers of migrations 0046 and 0048 write the new grain too, and it is
-- filled from grain 0.
CREATE OR REPLACE VIEW stat_grains AS SELECT 0 AS grain UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3;

INSERT INTO stat_daily (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, 3, day, center_id, -1, -1, library_id, SUM(n) FROM stat_daily WHERE grain = 0 GROUP BY figure, day, center_id, library_id HAVING SUM(n) <> 0;
INSERT INTO stat_turnaround (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, 3, month, center_id, -1, -1, library_id, tenths, SUM(n) FROM stat_turnaround WHERE grain = 0 GROUP BY span, month, center_id, library_id, tenths HAVING SUM(n) <> 0;

-- The trigger functions again, each writing the four grains.
CREATE OR REPLACE FUNCTION stat_daily_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT x.figure, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), x.center_id,
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, SUM(x.d)
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
CREATE OR REPLACE FUNCTION stat_diagnosis_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_daily AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
        SELECT 'diagnosed', g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM-DD'), COALESCE(c.center_id, 0),
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE c.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE COALESCE(c.expert_id, 0) END, CASE WHEN g.grain IN (0, 3) THEN COALESCE(c.library_id, 0) ELSE -1 END, SUM(x.d)
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
CREATE OR REPLACE FUNCTION stat_turnaround_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off INTEGER := (SELECT offset_minutes FROM stat_zone);
BEGIN
    INSERT INTO stat_turnaround AS s (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n)
        SELECT x.span, g.grain, to_char((x.at AT TIME ZONE 'UTC') + make_interval(mins => off), 'YYYY-MM'), x.center_id,
            CASE WHEN g.grain IN (2, 3) THEN -1 ELSE x.hospital_id END, CASE WHEN g.grain IN (1, 3) THEN -1 ELSE x.expert_id END, CASE WHEN g.grain IN (0, 3) THEN x.library_id ELSE -1 END, x.tenths, SUM(x.d)
        FROM (
            SELECT t.span, t.at, t.tenths, COALESCE(OLD.center_id, 0) AS center_id, OLD.hospital_id AS hospital_id, COALESCE(OLD.expert_id, 0) AS expert_id, COALESCE(OLD.library_id, 0) AS library_id, -1 AS d
                FROM stat_turnarounds_of(OLD) t WHERE TG_OP <> 'INSERT'
            UNION ALL
            SELECT t.span, t.at, t.tenths, COALESCE(NEW.center_id, 0), NEW.hospital_id, COALESCE(NEW.expert_id, 0), COALESCE(NEW.library_id, 0), 1
                FROM stat_turnarounds_of(NEW) t WHERE TG_OP <> 'DELETE'
        ) x CROSS JOIN stat_grains g
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(x.d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
        ON CONFLICT (span, grain, month, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    RETURN NULL;
END
$$;
