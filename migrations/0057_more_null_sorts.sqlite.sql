-- Sorting the other lists by a time that may be empty (issue 17): when a
-- charge was paid, a notification read, a loan lent or returned, an
-- invitation replied to, an advice done. SQLite orders NULLs first, as the
-- list engine asks, and the engine breaks ties by id descending. An index
-- on the time alone already ends in the rowid (id) and serves the
-- descending sort read backwards (charges_charged, invitations_replied,
-- advices_done, and notifications_unread for one user's list); the
-- ascending sort needs id descending within each time (the unpaid, unread,
-- unreturned, unanswered and undone rows are one group of many rows).
-- Loans had no index on these times nor on the due date.
CREATE INDEX charges_charged_sort_up ON charges(charged_at, id DESC);
CREATE INDEX notifications_read_sort_up ON notifications(user_id, read_at, id DESC);
CREATE INDEX borrows_lent_sort ON borrows(lent_at, id);
CREATE INDEX borrows_lent_sort_up ON borrows(lent_at, id DESC);
CREATE INDEX borrows_returned_sort ON borrows(returned_at, id);
CREATE INDEX borrows_returned_sort_up ON borrows(returned_at, id DESC);
CREATE INDEX borrows_due_sort ON borrows(due_date, id);
CREATE INDEX invitations_replied_sort_up ON invitations(replied_at, id DESC);
CREATE INDEX advices_done_sort_up ON advices(done_at, id DESC);
