-- The staff member's case scope (c.staff_id = ?, issue 17) by index: without
-- one every tab of the staff's diagnosis screen walked all the cases of the
-- tab's status looking for theirs (57 s for "completed" at a million cases
-- on SQLite, 3.4 s on PostgreSQL, even with none to find).
CREATE INDEX consultations_staff ON consultations(staff_id, status, id) WHERE staff_id IS NOT NULL;
