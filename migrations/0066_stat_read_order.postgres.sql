-- The daily rollups are stored in the order of their key (issue 14). A
-- screen reads one figure at one grain over a run of days: with the rows
-- of the rollups written as the loader and the backfills grouped them,
-- those few tens of thousands of rows lay on half of the table's pages, and
-- a three-year read fetched some 38,000 pages (two seconds, cold). Ordered
-- by the key they lie on a few hundred. Pages keep a tenth free, so that
-- the triggers' updates of a day's count can stay on its page. The rebuild (internal/statistics RebuildRollups)
-- writes them in the same order. (SQLite needs no such step: its GROUP BY
-- sorts, so the backfills and the rebuild already wrote the rows in the
-- key's order, and its turnaround rollups are a WITHOUT ROWID table.)
ALTER TABLE stat_daily SET (fillfactor = 90);
CLUSTER stat_daily USING stat_daily_key;
ALTER TABLE stat_turnaround SET (fillfactor = 90);
CLUSTER stat_turnaround USING stat_turnaround_key;
ANALYZE stat_daily;
ANALYZE stat_turnaround;
