-- Monthly and weekly rollups (issue 14): stat_daily summed per local
-- month (stat_monthly, the month named by its first day, 'YYYY-MM-01') and
-- per local week (stat_weekly, the week named by its Monday), same
-- figures, grains and columns. A screen by month or by week over a long
-- period reads its whole months or weeks there and only the days at its
-- edges in stat_daily: three years of one figure at a grain are some 36
-- rows per key instead of some 1,100, a year by week 52 instead of 365.
-- They are kept by statement triggers on stat_daily itself, in the
-- transaction of the write that changed a day (the triggers of the cases,
-- diagnoses, logs, charges, invitations, judgements and frozen sections
-- write the days): each statement's changed days are summed by month and
-- by week and added in one statement each, rows locked in key order as
-- the days are. A rebuild of the rollups (internal/statistics
-- RebuildRollups) sets stat_zone's rebuilding for its transaction, so that
-- the triggers stand aside while it empties and fills stat_daily, and then
-- fills the months and weeks set-wise.
ALTER TABLE stat_zone ADD COLUMN rebuilding INTEGER NOT NULL DEFAULT 0;

CREATE TABLE stat_monthly (
    figure TEXT NOT NULL,
    grain INTEGER NOT NULL,
    day TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    n BIGINT NOT NULL
) WITH (fillfactor = 90);

INSERT INTO stat_monthly (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, SUM(n)
    FROM stat_daily GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7;

-- The key's index holds n, so that a read of one figure at one grain is an
-- index-only walk; one expert's and one hospital's rows at the finest
-- grain as in migration 0067.
CREATE UNIQUE INDEX stat_monthly_key ON stat_monthly(figure, grain, day, center_id, hospital_id, expert_id, library_id) INCLUDE (n);
CREATE INDEX stat_monthly_expert ON stat_monthly(figure, expert_id, day) INCLUDE (center_id, hospital_id, library_id, n) WHERE grain = 0;
CREATE INDEX stat_monthly_hospital ON stat_monthly(figure, hospital_id, day) INCLUDE (center_id, expert_id, library_id, n) WHERE grain = 0;
ANALYZE stat_monthly;

CREATE TABLE stat_weekly (LIKE stat_monthly) WITH (fillfactor = 90);
INSERT INTO stat_weekly (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
    SELECT figure, grain, to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), center_id, hospital_id, expert_id, library_id, SUM(n)
    FROM stat_daily GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7;
CREATE UNIQUE INDEX stat_weekly_key ON stat_weekly(figure, grain, day, center_id, hospital_id, expert_id, library_id) INCLUDE (n);
CREATE INDEX stat_weekly_expert ON stat_weekly(figure, expert_id, day) INCLUDE (center_id, hospital_id, library_id, n) WHERE grain = 0;
CREATE INDEX stat_weekly_hospital ON stat_weekly(figure, hospital_id, day) INCLUDE (center_id, expert_id, library_id, n) WHERE grain = 0;
ANALYZE stat_weekly;

CREATE FUNCTION stat_monthly_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT rebuilding FROM stat_zone WHERE id = 1) <> 0 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO stat_monthly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, SUM(n)
            FROM stat_daily_new GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
        INSERT INTO stat_weekly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), center_id, hospital_id, expert_id, library_id, SUM(n)
            FROM stat_daily_new GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO stat_monthly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, SUM(n)
            FROM (SELECT figure, grain, day, center_id, hospital_id, expert_id, library_id, n FROM stat_daily_new
                UNION ALL SELECT figure, grain, day, center_id, hospital_id, expert_id, library_id, -n FROM stat_daily_old) x
            GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
        INSERT INTO stat_weekly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), center_id, hospital_id, expert_id, library_id, SUM(n)
            FROM (SELECT figure, grain, day, center_id, hospital_id, expert_id, library_id, n FROM stat_daily_new
                UNION ALL SELECT figure, grain, day, center_id, hospital_id, expert_id, library_id, -n FROM stat_daily_old) x
            GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    ELSE
        INSERT INTO stat_monthly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, SUBSTR(day, 1, 8) || '01', center_id, hospital_id, expert_id, library_id, -SUM(n)
            FROM stat_daily_old GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
        INSERT INTO stat_weekly AS s (figure, grain, day, center_id, hospital_id, expert_id, library_id, n)
            SELECT figure, grain, to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), center_id, hospital_id, expert_id, library_id, -SUM(n)
            FROM stat_daily_old GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (figure, grain, day, center_id, hospital_id, expert_id, library_id) DO UPDATE SET n = s.n + excluded.n;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER stat_daily_monthly_insert AFTER INSERT ON stat_daily REFERENCING NEW TABLE AS stat_daily_new
    FOR EACH STATEMENT EXECUTE FUNCTION stat_monthly_bump();
CREATE TRIGGER stat_daily_monthly_update AFTER UPDATE ON stat_daily REFERENCING OLD TABLE AS stat_daily_old NEW TABLE AS stat_daily_new
    FOR EACH STATEMENT EXECUTE FUNCTION stat_monthly_bump();
CREATE TRIGGER stat_daily_monthly_delete AFTER DELETE ON stat_daily REFERENCING OLD TABLE AS stat_daily_old
    FOR EACH STATEMENT EXECUTE FUNCTION stat_monthly_bump();

-- Turnaround reads of one expert or one hospital (issue 14): a site's
-- expert screen (its hospital, by expert) and an expert's consultation
-- screen (their cases, by hospital) read the finest grain (0) of
-- stat_turnaround, where the key's index walks every row of the span
-- over the months to keep one hospital's or one expert's (a site's three
-- years: half a second at 1M cases). As for stat_daily (migration 0067),
-- partial indexes hold the grain's rows by span and expert, and by span
-- and hospital, with every column the reads use.
CREATE INDEX stat_turnaround_expert ON stat_turnaround(span, expert_id, month) INCLUDE (center_id, hospital_id, library_id, tenths, n) WHERE grain = 0;
CREATE INDEX stat_turnaround_hospital ON stat_turnaround(span, hospital_id, month) INCLUDE (center_id, expert_id, library_id, tenths, n) WHERE grain = 0;
ANALYZE stat_turnaround;

-- Yearly turnaround rollups (issue 14): stat_turnaround summed per local
-- year ('YYYY'), the same spans, grains, columns and tenths of an hour. A
-- period's whole years are read here and its other whole months in
-- stat_turnaround: three years of buckets are some 2 years and 11 months
-- of rows instead of 35 months. Kept by statement triggers on
-- stat_turnaround as stat_monthly is on stat_daily, and standing aside
-- during a rebuild likewise.
CREATE TABLE stat_turnaround_yearly (
    span TEXT NOT NULL,
    grain INTEGER NOT NULL,
    year TEXT NOT NULL,
    center_id BIGINT NOT NULL,
    hospital_id BIGINT NOT NULL,
    expert_id BIGINT NOT NULL,
    library_id BIGINT NOT NULL,
    tenths BIGINT NOT NULL,
    n BIGINT NOT NULL
) WITH (fillfactor = 90);
INSERT INTO stat_turnaround_yearly (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths, n)
    SELECT span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths, SUM(n)
    FROM stat_turnaround GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8;
CREATE UNIQUE INDEX stat_turnaround_yearly_key ON stat_turnaround_yearly(span, grain, year, center_id, hospital_id, expert_id, library_id, tenths) INCLUDE (n);
CREATE INDEX stat_turnaround_yearly_expert ON stat_turnaround_yearly(span, expert_id, year) INCLUDE (center_id, hospital_id, library_id, tenths, n) WHERE grain = 0;
CREATE INDEX stat_turnaround_yearly_hospital ON stat_turnaround_yearly(span, hospital_id, year) INCLUDE (center_id, expert_id, library_id, tenths, n) WHERE grain = 0;
ANALYZE stat_turnaround_yearly;

CREATE FUNCTION stat_turnaround_yearly_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT rebuilding FROM stat_zone WHERE id = 1) <> 0 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO stat_turnaround_yearly AS s (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths, n)
            SELECT span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths, SUM(n)
            FROM stat_turnaround_new GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
            ON CONFLICT (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO stat_turnaround_yearly AS s (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths, n)
            SELECT span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths, SUM(n)
            FROM (SELECT span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, n FROM stat_turnaround_new
                UNION ALL SELECT span, grain, month, center_id, hospital_id, expert_id, library_id, tenths, -n FROM stat_turnaround_old) x
            GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
            ON CONFLICT (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    ELSE
        INSERT INTO stat_turnaround_yearly AS s (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths, n)
            SELECT span, grain, SUBSTR(month, 1, 4), center_id, hospital_id, expert_id, library_id, tenths, -SUM(n)
            FROM stat_turnaround_old GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
            ON CONFLICT (span, grain, year, center_id, hospital_id, expert_id, library_id, tenths) DO UPDATE SET n = s.n + excluded.n;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER stat_turnaround_yearly_insert AFTER INSERT ON stat_turnaround REFERENCING NEW TABLE AS stat_turnaround_new
    FOR EACH STATEMENT EXECUTE FUNCTION stat_turnaround_yearly_bump();
CREATE TRIGGER stat_turnaround_yearly_update AFTER UPDATE ON stat_turnaround REFERENCING OLD TABLE AS stat_turnaround_old NEW TABLE AS stat_turnaround_new
    FOR EACH STATEMENT EXECUTE FUNCTION stat_turnaround_yearly_bump();
CREATE TRIGGER stat_turnaround_yearly_delete AFTER DELETE ON stat_turnaround REFERENCING OLD TABLE AS stat_turnaround_old
    FOR EACH STATEMENT EXECUTE FUNCTION stat_turnaround_yearly_bump();
