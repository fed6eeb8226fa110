-- The case lists' filters, the site's all tab and the to_review tab at a
-- million cases (issue 17), on PostgreSQL. Each index is partial on the
-- scopes' deleted_at IS NULL and INCLUDEs what its lists test, so that they
-- read it alone (index-only).
-- A hospital's cases by creation, with every column the tabs test: the
-- site's all tab in its default order (consultations_live_hospital leads
-- with the status, so it read the hospital's 20,000 cases and sorted them),
-- and the tab counts under a hospital and creation filter (the admin's
-- counts of three hospitals, expedite, a year read ~20,000 cases' rows).
CREATE INDEX consultations_live_hospital_created ON consultations(hospital_id, created_at, id)
    INCLUDE (expedite, status, is_draft, is_recall, is_return, expert_id, is_lock, supplement_review,
        print_deliver_status, release_at, timeout_at, remind_at)
    WHERE deleted_at IS NULL;
-- A hospital's cases by inspection date (NULLS FIRST: the list sorts NULLs
-- first ascending, last descending), with the columns the site's filters
-- test: a sort or range of the inspection date under the site's filters
-- walks the hospital's cases in that order.
CREATE INDEX consultations_live_hospital_inspection ON consultations(hospital_id, inspection_date NULLS FIRST, id)
    INCLUDE (status, expedite, created_at)
    WHERE deleted_at IS NULL;
-- The to_review tab (a diagnosis to review, or a supplement), a few
-- thousand cases, by creation with what the scopes test.
CREATE INDEX consultations_to_review ON consultations(created_at, id)
    INCLUDE (hospital_id, center_id, status, is_return, supplement_review)
    WHERE deleted_at IS NULL AND (status = 2 OR supplement_review = 1);
