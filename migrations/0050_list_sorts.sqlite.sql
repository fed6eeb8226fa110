-- Case lists sorted by a column (issue 17): the whole list of an administrator
-- or a center walks an index in the sort's order instead of sorting every
-- case. The list engine breaks ties by id, so each index ends in id: a
-- descending sort reads it backwards exactly; an ascending one reads it in
-- order and sorts only the rows of one value. Where one value holds many
-- rows (few ages, slide counts and states; most cases have no timeout or
-- assignment time), a second index with id descending serves the ascending
-- sort exactly. The text columns' own indexes (migration 0001) serve their
-- sorts already.
CREATE INDEX consultations_age_sort ON consultations(age, id);
CREATE INDEX consultations_slides_sort ON consultations(slide_count, id);
CREATE INDEX consultations_status_sort ON consultations(status, id);
CREATE INDEX consultations_inspection_sort ON consultations(inspection_date, id);
CREATE INDEX consultations_timeout_sort ON consultations(timeout_at, id);
CREATE INDEX consultations_assigned_sort ON consultations(assigned_at, id);
DROP INDEX consultations_assigned;
CREATE INDEX consultations_age_sort_up ON consultations(age, id DESC);
CREATE INDEX consultations_slides_sort_up ON consultations(slide_count, id DESC);
CREATE INDEX consultations_status_sort_up ON consultations(status, id DESC);
CREATE INDEX consultations_timeout_sort_up ON consultations(timeout_at, id DESC);
CREATE INDEX consultations_assigned_sort_up ON consultations(assigned_at, id DESC);
