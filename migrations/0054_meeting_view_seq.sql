-- The sequence number of the stored presenter's view (issue 15): a view that
-- arrives after a later one of the same presenter is not stored over it.
-- NULL before the first numbered view and after a hand-over.
ALTER TABLE meetings ADD COLUMN view_seq BIGINT;
