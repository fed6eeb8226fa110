-- Sorting by submission time or by last sign-in (issue 17): SQLite orders
-- NULLs first, as the list engine asks, and the engine breaks ties by id
-- descending. consultations_submitted (migration 0028) ends in id, so it
-- serves the descending sort read backwards; the ascending sort needs id
-- descending within each time (cases not yet submitted, and users who never
-- signed in, are one group of many rows). Users had no index on
-- last_login_at at all.
CREATE INDEX consultations_submitted_sort_up ON consultations(submitted_at, id DESC);
CREATE INDEX users_login_sort ON users(last_login_at, id);
CREATE INDEX users_login_sort_up ON users(last_login_at, id DESC);
