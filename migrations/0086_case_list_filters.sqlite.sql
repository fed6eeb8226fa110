-- The case lists' filters, the site's all tab and the to_review tab at a
-- million cases (issue 17), on SQLite. Each index is partial on the scopes'
-- deleted_at IS NULL and holds what its lists test, deleted_at included
-- (see 0075), so that they read it alone.
-- A hospital's cases by creation: the site's all tab in its default order
-- (the hospital's other indexes lead with the status or the expedite flag,
-- so it read the hospital's 20,000 cases and sorted them).
CREATE INDEX consultations_live_hospital_created ON consultations(hospital_id, created_at, id, deleted_at)
    WHERE deleted_at IS NULL;
-- 0081's hospital and expedite index, now with every column the tabs test:
-- the tab counts under a hospital, expedite and creation filter (the
-- admin's counts of three hospitals, expedite, a year) read it alone
-- instead of each case's row.
DROP INDEX consultations_live_hospital_expedite;
CREATE INDEX consultations_live_hospital_expedite ON consultations(hospital_id, expedite, created_at, id, status, is_draft,
    is_recall, is_return, expert_id, is_lock, supplement_review, print_deliver_status, release_at, timeout_at, remind_at,
    center_id, deleted_at)
    WHERE deleted_at IS NULL;
-- A hospital's cases of a status by inspection date, with the columns the
-- site's filters test: a sort or range of the inspection date under the
-- site's status filter walks the hospital's cases in that order. Led by
-- the hospital alone (as on PostgreSQL), SQLite kept consultations_live_hospital's
-- hospital, status and creation range and sorted what it found.
CREATE INDEX consultations_live_hospital_inspection ON consultations(hospital_id, status, inspection_date, id, expedite,
    created_at, deleted_at)
    WHERE deleted_at IS NULL;
-- The to_review tab (a diagnosis to review, or a supplement), a few
-- thousand cases, by creation with what the scopes test. SQLite matches a
-- partial index only to a condition written the same way as the tab's.
CREATE INDEX consultations_to_review ON consultations(created_at, id, hospital_id, center_id, status, is_return,
    supplement_review, deleted_at)
    WHERE deleted_at IS NULL AND (status = 2 OR supplement_review = 1);
ANALYZE consultations_live_hospital_created;
ANALYZE consultations_live_hospital_expedite;
ANALYZE consultations_live_hospital_inspection;
ANALYZE consultations_to_review;
