package borrow

// Filed is the SQL condition that the case whose id is the SQL expression
// caseID has its material stored in the archive (the case shows "Filed"):
// the case lists read the archive through it, not from its table.
func Filed(caseID string) string {
	return "EXISTS (SELECT 1 FROM archives ar WHERE ar.consult_id = " + caseID + " AND ar.status = '" + string(ArchiveArchived) + "')"
}
