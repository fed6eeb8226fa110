package listquery

import (
	"strings"
	"time"
	"unicode"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
)

// Operator is a comparison of the constraints syntax.
type Operator string

const (
	Eq         Operator = "="
	Ne         Operator = "!="
	Gt         Operator = ">"
	Ge         Operator = ">="
	Lt         Operator = "<"
	Le         Operator = "<="
	Like       Operator = "like"
	NotLike    Operator = "not like"
	In         Operator = "in"
	NotIn      Operator = "not in"
	Between    Operator = "between"
	NotBetween Operator = "not between"
)

var inverse = map[Operator]Operator{
	Eq: Ne, Ne: Eq, Gt: Le, Le: Gt, Ge: Lt, Lt: Ge,
	Like: NotLike, NotLike: Like, In: NotIn, NotIn: In, Between: NotBetween, NotBetween: Between,
}

// Inverse returns the operator that selects exactly the other rows (for
// non-NULL values): the except rule of the spec.
func (o Operator) Inverse() Operator { return inverse[o] }

// Negative reports whether o is one of !=, not like, not in, not between.
func (o Operator) Negative() bool {
	return o == Ne || o == NotLike || o == NotIn || o == NotBetween
}

// ParseOperator reads an operator as clients write it: case and spacing do
// not matter, and "<>" means "!=".
func ParseOperator(s string) (Operator, error) {
	o := Operator(strings.Join(strings.Fields(strings.ToLower(s)), " "))
	if o == "<>" {
		return Ne, nil
	}
	if _, ok := inverse[o]; !ok {
		return "", errOperator(s)
	}
	return o, nil
}

var sqlOp = map[Operator]string{Eq: "=", Ne: "<>", Gt: ">", Ge: ">=", Lt: "<", Le: "<="}

// Compare builds "expr op values" with bound values: one value for the
// comparisons and like (an escaped pattern, see LikePattern), any number for
// in/not in, two for between/not between where a nil end is open. Virtual
// columns use it for the inner condition of their subquery.
func Compare(d db.Dialect, expr string, op Operator, values []any) sq.Sqlizer {
	switch op {
	case Eq, Ne, Gt, Ge, Lt, Le:
		return sq.Expr(expr+" "+sqlOp[op]+" ?", values[0])
	case Like:
		return sq.Expr(expr+" "+likeOp(d, values[0])+` ? ESCAPE '\'`, values[0])
	case NotLike:
		return sq.Expr(expr+" NOT "+likeOp(d, values[0])+` ? ESCAPE '\'`, values[0])
	case In, NotIn:
		if len(values) == 0 {
			if op == In {
				return sq.Expr("1=0")
			}
			return sq.Expr("1=1")
		}
		kw := " IN ("
		if op == NotIn {
			kw = " NOT IN ("
		}
		return sq.Expr(expr+kw+sq.Placeholders(len(values))+")", values...)
	case Between:
		lo, hi := values[0], values[1]
		switch {
		case lo != nil && hi != nil:
			return sq.Expr(expr+" BETWEEN ? AND ?", lo, hi)
		case lo != nil:
			return sq.Expr(expr+" >= ?", lo)
		case hi != nil:
			return sq.Expr(expr+" <= ?", hi)
		}
		return sq.Expr("1=1")
	case NotBetween:
		lo, hi := values[0], values[1]
		switch {
		case lo != nil && hi != nil:
			return sq.Expr(expr+" NOT BETWEEN ? AND ?", lo, hi)
		case lo != nil:
			return sq.Expr(expr+" < ?", lo)
		case hi != nil:
			return sq.Expr(expr+" > ?", hi)
		}
		return sq.Expr("1=0")
	}
	return sq.Expr("1=0") // unreachable: operators are checked when parsed
}

// LikePattern returns %s% with the LIKE wildcards and the escape character
// of s escaped, for use with Compare's like (ESCAPE '\').
func LikePattern(s string) string {
	return "%" + likeEscaper.Replace(s) + "%"
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// span is a time value that covers [t, t+width): a date covers a day, a time
// to the second covers that second; an RFC 3339 time is exact (width 0).
type span struct {
	t     time.Time
	width time.Duration
}

func (s span) end() time.Time { return s.t.Add(s.width) }

// compareTime is Compare for a Time column, where a value covers its span.
func compareTime(expr string, op Operator, v []any) sq.Sqlizer {
	at := func(i int) (span, bool) { s, ok := v[i].(span); return s, ok }
	ge := func(t time.Time) sq.Sqlizer { return sq.Expr(expr+" >= ?", t) }
	lt := func(t time.Time) sq.Sqlizer { return sq.Expr(expr+" < ?", t) }
	// upTo is "expr ≤ the value, all of its span included"; over its negation.
	upTo := func(s span) sq.Sqlizer {
		if s.width == 0 {
			return sq.Expr(expr+" <= ?", s.t)
		}
		return lt(s.end())
	}
	over := func(s span) sq.Sqlizer {
		if s.width == 0 {
			return sq.Expr(expr+" > ?", s.t)
		}
		return ge(s.end())
	}
	eq := func(s span) sq.Sqlizer {
		if s.width == 0 {
			return sq.Expr(expr+" = ?", s.t)
		}
		return sq.And{ge(s.t), lt(s.end())}
	}
	ne := func(s span) sq.Sqlizer {
		if s.width == 0 {
			return sq.Expr(expr+" <> ?", s.t)
		}
		return sq.Or{lt(s.t), ge(s.end())}
	}
	switch op {
	case Eq:
		s, _ := at(0)
		return eq(s)
	case Ne:
		s, _ := at(0)
		return ne(s)
	case Gt:
		s, _ := at(0)
		return over(s)
	case Ge:
		s, _ := at(0)
		return ge(s.t)
	case Lt:
		s, _ := at(0)
		return lt(s.t)
	case Le:
		s, _ := at(0)
		return upTo(s)
	case In, NotIn:
		exact := make([]any, 0, len(v))
		var parts []sq.Sqlizer
		for i := range v {
			s, _ := at(i)
			if s.width == 0 {
				exact = append(exact, s.t)
			} else if op == In {
				parts = append(parts, eq(s))
			} else {
				parts = append(parts, ne(s))
			}
		}
		if len(exact) > 0 || len(parts) == 0 {
			parts = append(parts, Compare(db.SQLite, expr, op, exact)) // in needs no dialect
		}
		if len(parts) == 1 {
			return parts[0]
		}
		if op == In {
			return sq.Or(parts)
		}
		return sq.And(parts)
	case Between, NotBetween:
		var c sq.And
		if s, ok := at(0); ok {
			c = append(c, ge(s.t))
		}
		if s, ok := at(1); ok {
			c = append(c, upTo(s))
		}
		if op == Between {
			if len(c) == 0 {
				return sq.Expr("1=1")
			}
			return c
		}
		var o sq.Or
		if s, ok := at(0); ok {
			o = append(o, lt(s.t))
		}
		if s, ok := at(1); ok {
			o = append(o, over(s))
		}
		if len(o) == 0 {
			return sq.Expr("1=0")
		}
		return o
	}
	return sq.Expr("1=0")
}

// likeOp is the dialect's case-insensitive LIKE, or plain LIKE when the
// pattern has no letter with case (Chinese text, digits): the result is the
// same and PostgreSQL's ILIKE is several times slower on large lists.
func likeOp(d db.Dialect, pattern any) string {
	if s, ok := pattern.(string); ok {
		for _, r := range s {
			if unicode.ToUpper(r) != unicode.ToLower(r) {
				return d.Like()
			}
		}
		return "LIKE"
	}
	return d.Like()
}
