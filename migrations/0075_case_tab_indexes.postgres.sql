-- The case tabs whose conditions compare times (timeout, soon_timeout,
-- releasing, to_print, to_send), the recall and return tabs, and the deep
-- pages of the default sorts, read by index-only scans (issue 17), on
-- PostgreSQL. Every list's scope says c.deleted_at IS NULL, which no older
-- index holds: at a million cases a timeout count fetched its 5,300 open
-- cases from the heap, a deep page each of the 100,000 it skipped. Each
-- index is partial on what its tabs say and INCLUDEs the columns their
-- conditions and the scopes (hospital, center, returned) read.
-- Live server: each CREATE INDEX holds consultations' SHARE lock (writes to
-- cases wait, reads go on) for a few seconds at a million cases.
CREATE INDEX consultations_open ON consultations(created_at, id)
    INCLUDE (timeout_at, remind_at, hospital_id, center_id, status, is_return)
    WHERE deleted_at IS NULL AND status IN (1, 2) AND is_recall = 0;
CREATE INDEX consultations_exceptions ON consultations(created_at, id)
    INCLUDE (hospital_id, center_id, status, is_recall, is_return)
    WHERE deleted_at IS NULL AND (is_recall <> 0 OR is_return <> 0);
CREATE INDEX consultations_to_deliver ON consultations(print_deliver_status, release_at)
    INCLUDE (hospital_id, center_id, is_return)
    WHERE deleted_at IS NULL AND status = 4 AND print_deliver_status IN (1, 2);
CREATE INDEX consultations_releasing ON consultations(release_at)
    INCLUDE (status, hospital_id, center_id, is_return)
    WHERE deleted_at IS NULL AND release_at IS NOT NULL;
-- The keys of a deep page: the admin's cases by creation, a hospital's of a
-- status by creation (with the columns the site's filters and counts test),
-- a status by patient name (ascending pages: the tie-break is id DESC) and
-- a hospital's status by slide count.
CREATE INDEX consultations_live_created ON consultations(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_hospital ON consultations(hospital_id, status, created_at, id)
    INCLUDE (release_at, expedite, inspection_date)
    WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_patient_up ON consultations(status, patient_name COLLATE "C", id DESC) WHERE deleted_at IS NULL;
CREATE INDEX consultations_live_hospital_slides ON consultations(hospital_id, status, slide_count, id) WHERE deleted_at IS NULL;
-- The tabs' flags are not independent (a returned or recalled case is of
-- status 0): without statistics over them together the planner took an
-- admin's returned_site tab (2,401 cases) for 16 cases, read them all and
-- sorted them instead of walking consultations_return in order.
CREATE STATISTICS consultations_flags (mcv) ON status, is_recall, is_return FROM consultations;
ANALYZE consultations;
