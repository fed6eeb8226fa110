-- Who sent the stored view of a meeting (issue 15): it is served only while
-- its sender presents, so after a hand-over nobody gets the previous
-- presenter's view before the new presenter sends one. Views stored before
-- this column are taken as their meeting's presenter's, as they were served.
ALTER TABLE meetings ADD COLUMN view_by BIGINT REFERENCES users(id);
UPDATE meetings SET view_by = presenter_id WHERE view <> '';
