-- The case tabs whose conditions compare times (timeout, soon_timeout,
-- releasing, to_print, to_send), the recall and return tabs, and the deep
-- pages of the default sorts, read from indexes alone (issue 17), on SQLite.
-- Every list's scope says c.deleted_at IS NULL, and a case's row is costly
-- to read: at a million cases a timeout count looked up its 5,300 open
-- cases one by one, a deep page each of the 100,000 it skipped, only to
-- test deleted_at. Each index below is partial on what its tabs say (so
-- that it holds only their cases) and carries every column their
-- conditions and the scopes (hospital, center, returned) read, deleted_at
-- and the partial condition's columns included, without which SQLite does
-- not take the index as covering. SQLite matches a partial index only to a
-- condition written the same way, so the OR lists each way the tabs write
-- it ("is_recall IN (1, 2)", "is_recall = 1", …). The open cases' index
-- leads with is_recall (always 0 there) so that SQLite searches it by that
-- equality, in created_at order, rather than reading a bigger index.
-- ANALYZE of each new index only, as 0063: unmeasured, SQLite misjudges them.
CREATE INDEX consultations_open ON consultations(is_recall, created_at, id, timeout_at, remind_at, hospital_id, center_id,
    status, is_return, deleted_at)
    WHERE deleted_at IS NULL AND status IN (1, 2) AND is_recall = 0;
-- The same open cases by status and due time: SQLite reads the timeout counts
-- by (status, timeout_at) and took a bigger index of that shape, not covering.
CREATE INDEX consultations_open_due ON consultations(status, timeout_at, remind_at, is_recall, hospital_id, center_id,
    is_return, deleted_at)
    WHERE deleted_at IS NULL AND status IN (1, 2) AND is_recall = 0;
-- Recalled and returned cases of a hospital (the site's scope), and of a
-- center by status (the allocator's, which SQLite otherwise reads by
-- (center_id, status) from all the center's cases of that status).
CREATE INDEX consultations_exceptions ON consultations(hospital_id, created_at, id, center_id, status, is_recall, is_return,
    deleted_at)
    WHERE deleted_at IS NULL AND (is_recall IN (1, 2) OR is_recall = 1 OR is_recall = 2 OR is_return = -1 OR is_return = 1);
CREATE INDEX consultations_exceptions_center ON consultations(center_id, status, created_at, id, hospital_id, is_recall,
    is_return, deleted_at)
    WHERE deleted_at IS NULL AND (is_recall IN (1, 2) OR is_recall = 1 OR is_recall = 2 OR is_return = -1 OR is_return = 1);
CREATE INDEX consultations_to_deliver ON consultations(print_deliver_status, release_at, hospital_id, center_id, is_return,
    status, deleted_at)
    WHERE deleted_at IS NULL AND status = 4 AND (print_deliver_status = 1 OR print_deliver_status = 2);
CREATE INDEX consultations_releasing ON consultations(status, release_at, hospital_id, center_id, is_return, deleted_at)
    WHERE deleted_at IS NULL AND release_at IS NOT NULL;
-- The keys of a deep page: the admin's cases by creation, a hospital's of a
-- status by creation (with the columns the site's filters and counts test),
-- a status by patient name (ascending pages: the tie-break is id DESC) and
-- a hospital's status by slide count.
CREATE INDEX consultations_live_created ON consultations(created_at, id, deleted_at) WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_hospital ON consultations(hospital_id, status, created_at, id, release_at, expedite,
    inspection_date, deleted_at)
    WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_patient_up ON consultations(status, patient_name, id DESC, deleted_at) WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_hospital_slides ON consultations(hospital_id, status, slide_count, id, deleted_at)
    WHERE deleted_at IS NULL;
ANALYZE consultations_open;
ANALYZE consultations_open_due;
ANALYZE consultations_exceptions;
ANALYZE consultations_exceptions_center;
ANALYZE consultations_to_deliver;
ANALYZE consultations_releasing;
ANALYZE consultations_live_created;
ANALYZE consultations_live_hospital;
ANALYZE consultations_live_patient_up;
ANALYZE consultations_live_hospital_slides;
