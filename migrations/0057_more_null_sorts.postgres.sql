-- Sorting the other lists by a time that may be empty (issue 17): when a
-- charge was paid, a notification read, a loan lent or returned, an
-- invitation replied to, an advice done. The list engine sorts NULLs first
-- when ascending and last when descending and breaks ties by id descending,
-- so each index is declared NULLS FIRST: one ending in id serves the
-- descending sort read backwards, one ending in id DESC the ascending sort
-- read forwards, both exactly (the unpaid, unread, unreturned, unanswered
-- and undone rows are one group of many rows). A notification list is one
-- user's, so its indexes start with the user. The old single-column indexes
-- (NULLS LAST) are replaced: the new ones serve the same range filters and
-- the unread count. A loan's due date is text sorted by code point.
CREATE INDEX charges_charged_sort ON charges(charged_at NULLS FIRST, id);
CREATE INDEX charges_charged_sort_up ON charges(charged_at NULLS FIRST, id DESC);
DROP INDEX charges_charged;
CREATE INDEX notifications_read_sort ON notifications(user_id, read_at NULLS FIRST, id);
CREATE INDEX notifications_read_sort_up ON notifications(user_id, read_at NULLS FIRST, id DESC);
DROP INDEX notifications_unread;
CREATE INDEX borrows_lent_sort ON borrows(lent_at NULLS FIRST, id);
CREATE INDEX borrows_lent_sort_up ON borrows(lent_at NULLS FIRST, id DESC);
CREATE INDEX borrows_returned_sort ON borrows(returned_at NULLS FIRST, id);
CREATE INDEX borrows_returned_sort_up ON borrows(returned_at NULLS FIRST, id DESC);
CREATE INDEX borrows_due_sort ON borrows(due_date COLLATE "C", id);
CREATE INDEX invitations_replied_sort ON invitations(replied_at NULLS FIRST, id);
CREATE INDEX invitations_replied_sort_up ON invitations(replied_at NULLS FIRST, id DESC);
DROP INDEX invitations_replied;
CREATE INDEX advices_done_sort ON advices(done_at NULLS FIRST, id);
CREATE INDEX advices_done_sort_up ON advices(done_at NULLS FIRST, id DESC);
DROP INDEX advices_done;
