-- An expert's tab counts and list totals from a tally (issue 17): the rows
-- of case_experts counted by the columns an expert's scope and tabs name,
-- kept exact by triggers on case_experts in the transaction that writes
-- them, so that a count sums a few dozen tally rows instead of counting an
-- expert's ~26,000 rows at a million cases. The tabs that compare times
-- (timeout, releasing, …) still count rows. Of those, the completed
-- cases' releasing, to_print and to_send read partial indexes of the
-- expert's completed rows by release time (and print status), a few
-- hundred entries, instead of case_experts_tab's ~26,000 completed entries
-- each (index-only, as case_experts_tab).
--
-- The triggers are statement triggers over the transition tables: each
-- statement adds its rows' net change per key in one INSERT … ON CONFLICT
-- DO UPDATE (atomic under concurrent writers, as consultation_tally_bump),
-- in key order, so two statements lock their tally rows in the same order;
-- keys whose change nets to zero (a copy of a time, a case's members
-- written again with the same columns) are not touched. As with
-- consultation_tallies, two transactions whose several statements lock the
-- same keys in other orders may still deadlock: PostgreSQL aborts one.
--
-- Live server: the triggers are created first, which holds case_experts'
-- SHARE ROW EXCLUSIVE lock (writes wait, reads go on) until the migration
-- commits, so that no row changes between the backfill's read and them;
-- the index builds hold case_experts' SHARE lock (about 1.3 s at 1M).

CREATE TABLE case_expert_tallies (
    expert_id BIGINT NOT NULL,
    deleted INTEGER NOT NULL,
    status INTEGER NOT NULL,
    is_draft INTEGER NOT NULL,
    is_recall INTEGER NOT NULL,
    is_return INTEGER NOT NULL,
    is_lock INTEGER NOT NULL,
    assigned INTEGER NOT NULL,
    supplement_review INTEGER NOT NULL,
    print_deliver_status INTEGER NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status)
);

CREATE FUNCTION case_expert_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, COUNT(*)
        FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE FUNCTION case_expert_tally_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, -COUNT(*)
        FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE FUNCTION case_expert_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, SUM(d)
        FROM (SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, 1 AS d FROM new_rows
              UNION ALL
              SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, -1 FROM old_rows) r
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 HAVING SUM(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER case_expert_tallies_insert AFTER INSERT ON case_experts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION case_expert_tally_insert();
CREATE TRIGGER case_expert_tallies_delete AFTER DELETE ON case_experts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION case_expert_tally_delete();
CREATE TRIGGER case_expert_tallies_update AFTER UPDATE ON case_experts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION case_expert_tally_update();

INSERT INTO case_expert_tallies (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, n)
    SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, COUNT(*)
    FROM case_experts GROUP BY expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status;

CREATE INDEX case_experts_released ON case_experts(expert_id, print_deliver_status, release_at) INCLUDE (deleted, is_return) WHERE status = 4;
CREATE INDEX case_experts_releasing ON case_experts(expert_id, release_at) INCLUDE (deleted, is_return) WHERE status = 4;
