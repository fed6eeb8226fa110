-- An expert's case tallies also by hospital (issue 17): case_expert_tallies
-- (migration 0080) counts an expert's rows of case_experts by the columns
-- their scope and tabs name, and now by hospital_id too (copied by 0083),
-- so that the total of an expert's search that names hospitals only (a
-- hospital's name that no case's searched columns hold, x.hospital_id IN
-- (…)) sums the tally rows of those hospitals instead of counting their
-- rows: at a million cases an expert's completed cases of 人民医院 are
-- ~13,000 rows of 26 hospitals. An expert has up to 50 times as many
-- tally rows (a few thousand), which their tab counts sum.
--
-- The table is rebuilt under another name and put in place of the old one
-- at the end, and the triggers' functions are replaced to write the new
-- key. Live server: case_experts is locked first in SHARE ROW EXCLUSIVE
-- mode (writes to it wait, reads go on) until the migration commits, so
-- that no row changes between the backfill's read and the new functions;
-- the old tally is read by the expert's counts until the DROP, which
-- holds its exclusive lock only for the rename and the commit. The
-- backfill groups every row of case_experts once (about a second at 1M).
LOCK TABLE case_experts IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE case_expert_tallies_next (
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
    hospital_id BIGINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id)
);

-- The bulk loader (internal/benchdata) runs this statement on
-- case_expert_tallies itself.
INSERT INTO case_expert_tallies_next (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n)
    SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, COUNT(*)
    FROM case_experts GROUP BY expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id;

CREATE OR REPLACE FUNCTION case_expert_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, COUNT(*)
        FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION case_expert_tally_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, -COUNT(*)
        FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION case_expert_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_expert_tallies AS t (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, n)
        SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, SUM(d)
        FROM (SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, 1 AS d FROM new_rows
              UNION ALL
              SELECT expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id, -1 FROM old_rows) r
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 HAVING SUM(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id) DO UPDATE SET n = t.n + EXCLUDED.n;
    RETURN NULL;
END
$$;

DROP TABLE case_expert_tallies;
ALTER TABLE case_expert_tallies_next RENAME TO case_expert_tallies;
ALTER INDEX case_expert_tallies_next_pkey RENAME TO case_expert_tallies_pkey;
ANALYZE case_expert_tallies;
