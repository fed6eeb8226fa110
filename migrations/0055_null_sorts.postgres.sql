-- Sorting by submission time or by last sign-in (issue 17): the list engine
-- sorts NULLs first when ascending and last when descending, and breaks ties
-- by id descending. consultations_submitted (migration 0028) keeps NULLs
-- last, so neither direction could read it in the sort's order and every
-- case was sorted. Declared NULLS FIRST, an index ending in id serves the
-- descending sort read backwards, and one ending in id DESC the ascending
-- sort read forwards, both exactly (cases not yet submitted, and users who
-- never signed in, are one group of many rows). The new index serves the
-- range filters on submitted_at as the old one did.
CREATE INDEX consultations_submitted_sort ON consultations(submitted_at NULLS FIRST, id);
CREATE INDEX consultations_submitted_sort_up ON consultations(submitted_at NULLS FIRST, id DESC);
DROP INDEX consultations_submitted;
CREATE INDEX users_login_sort ON users(last_login_at NULLS FIRST, id);
CREATE INDEX users_login_sort_up ON users(last_login_at NULLS FIRST, id DESC);
