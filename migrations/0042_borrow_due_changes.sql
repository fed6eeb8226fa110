-- Changes of a loan's due date (spec 2 §3 Borrow: dates, return date; §4
-- Borrow states): the center extends or moves the day the material is due
-- back while the loan is checking, passed or lent out. Each change is kept
-- (from, to, why, who, when) and shown in the loan's detail; the loan's
-- due_date is the last one, so the overdue highlight follows it.
CREATE TABLE borrow_due_changes (
    id {{ID}},
    borrow_id BIGINT NOT NULL REFERENCES borrows(id),
    from_date TEXT NOT NULL,
    to_date TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    changed_by BIGINT NOT NULL REFERENCES users(id),
    changed_at {{TS}} NOT NULL
);
CREATE INDEX borrow_due_changes_borrow ON borrow_due_changes(borrow_id, id);
