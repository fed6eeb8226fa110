package listquery

import (
	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
)

// Exists builds the condition of a virtual column over a to-many relation.
// subquery is the resource's own SQL correlating the relation with the row,
// e.g. "SELECT 1 FROM user_roles r WHERE r.user_id = u.id", and expr the
// related value, e.g. "r.role". A positive operator gives
// EXISTS (subquery AND expr op values); a negative one (!=, not like, not in,
// not between) gives NOT EXISTS (subquery AND expr positive-op values), so
// "role != admin" selects the users who do not hold the admin role.
func Exists(d db.Dialect, subquery, expr string, op Operator, values []any) (sq.Sqlizer, error) {
	kw := "EXISTS ("
	if op.Negative() {
		kw, op = "NOT EXISTS (", op.Inverse()
	}
	return sq.Expr(kw+subquery+" AND ?)", Compare(d, expr, op, values)), nil
}

// InSet is Exists written as a semi-join: outer IN (subquery WHERE expr op
// values), NOT IN for a negative operator. subquery selects the related key,
// e.g. "SELECT r.user_id FROM user_roles r". Both databases evaluate it once
// through the relation's index instead of once per row, which matters on
// large lists.
func InSet(d db.Dialect, outer, subquery, expr string, op Operator, values []any) (sq.Sqlizer, error) {
	kw := " IN ("
	if op.Negative() {
		kw, op = " NOT IN (", op.Inverse()
	}
	return sq.Expr(outer+kw+subquery+" WHERE ?)", Compare(d, expr, op, values)), nil
}
