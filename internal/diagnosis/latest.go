package diagnosis

// Latest is a SQL subquery reading column of the latest version of a
// case's main diagnosis; caseID is the SQL expression of the case's id.
// Other domains' lists read a diagnosis through it, not from its table.
// column is one of the diagnosis's columns, never input.
func Latest(column, caseID string) string {
	return "(SELECT dg." + column + " FROM diagnoses dg WHERE dg.consult_id = " + caseID + " AND dg.type = 0 ORDER BY dg.version DESC LIMIT 1)"
}
