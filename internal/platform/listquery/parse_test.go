package listquery

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// items is the resource the tests use; lq_items and lq_tags exist in the
// database tests.
var items = &Resource{
	Columns: map[string]Column{
		"id":       {Expr: "i.id", Type: Int, Sort: true, Filter: true, Search: true},
		"name":     {Expr: "i.name", Type: String, Sort: true, Filter: true, Search: true},
		"n":        {Expr: "i.n", Type: Int, Sort: true, Filter: true},
		"score":    {Expr: "i.score", Type: Float, Sort: true, Filter: true},
		"flag":     {Expr: "i.flag", Type: Bool, Filter: true},
		"status":   {Expr: "i.status", Type: Int, Filter: true, Enum: []any{0, 1, 2, 4}},
		"kind":     {Expr: "i.kind", Type: String, Filter: true, Sort: true, Enum: []any{"a", "b"}},
		"at":       {Expr: "i.at", Type: Time, Sort: true, Filter: true, Nullable: true},
		"hospital": {Expr: "i.n", Type: Int, Filter: true, Lenient: true},
		"hidden":   {Expr: "i.secret", Type: String}, // neither sortable nor filterable
		"tag": {Type: String, Filter: true, Search: true, Where: func(d db.Dialect, op Operator, v []any) (sq.Sqlizer, error) {
			return Exists(d, "SELECT 1 FROM lq_tags t WHERE t.item_id = i.id", "t.tag", op, v)
		}},
	},
	DefaultSort: []string{"i.at DESC NULLS LAST"},
	TieBreak:    "i.id DESC",
	ExtraParams: []string{"tab"},
}

func parse(t *testing.T, req Request) (*Query, string, []any) {
	t.Helper()
	q, err := items.Parse(db.SQLite, req)
	if err != nil {
		t.Fatalf("Parse(%+v): %v", req, err)
	}
	s, args, err := q.Where.ToSql()
	if err != nil {
		t.Fatal(err)
	}
	return q, s, args
}

func where(t *testing.T, req Request) (string, []any) {
	t.Helper()
	_, s, a := parse(t, req)
	return s, a
}

// one wraps a single constraint item in the spec's shape.
func one(cond, column, op string, value any) string {
	v, _ := jsonText(value)
	return fmt.Sprintf(`{"constraints":[{"condition":"and","constraint":[{"condition":%q,"relation":"","operator":%q,"column":%q,"value":%s}]}]}`, cond, op, column, v)
}

func jsonText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "RAW:") {
			return v[4:], nil
		}
		return fmt.Sprintf("%q", v), nil
	}
	return fmt.Sprint(v), nil
}

func cst(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04:05", s, clock.Clock{}.Zone())
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestOperators(t *testing.T) {
	tests := []struct {
		name, column, op string
		value            any
		sql              string
		args             []any
	}{
		{"Eq", "name", "=", "x", "i.name = ?", []any{"x"}},
		{"Ne", "name", "!=", "x", "i.name <> ?", []any{"x"}},
		{"NeAngle", "name", "<>", "x", "i.name <> ?", []any{"x"}},
		{"Gt", "n", ">", 1, "i.n > ?", []any{int64(1)}},
		{"Ge", "n", ">=", "2", "i.n >= ?", []any{int64(2)}},
		{"Lt", "score", "<", 1.5, "i.score < ?", []any{1.5}},
		{"Le", "score", "<=", "2", "i.score <= ?", []any{2.0}},
		{"Like", "name", "like", "a_b%", `i.name LIKE ? ESCAPE '\'`, []any{`%a\_b\%%`}},
		{"NotLikeAnyCaseAndSpacing", "name", "NOT   Like", `c\`, `i.name NOT LIKE ? ESCAPE '\'`, []any{`%c\\%`}},
		{"In", "n", "in", "RAW:[1,\"2\"]", "i.n IN (?,?)", []any{int64(1), int64(2)}},
		{"InScalar", "n", "in", 3, "i.n IN (?)", []any{int64(3)}},
		{"InSkipsEmptyItems", "n", "in", `RAW:[1,"",null]`, "i.n IN (?)", []any{int64(1)}},
		{"NotIn", "name", "not in", `RAW:["a","b"]`, "i.name NOT IN (?,?)", []any{"a", "b"}},
		{"Between", "n", "between", "RAW:[1,5]", "i.n BETWEEN ? AND ?", []any{int64(1), int64(5)}},
		{"BetweenOpenLow", "n", "between", `RAW:[null,5]`, "i.n <= ?", []any{int64(5)}},
		{"BetweenOpenHigh", "n", "between", `RAW:[1,""]`, "i.n >= ?", []any{int64(1)}},
		{"NotBetween", "n", "not between", "RAW:[1,5]", "i.n NOT BETWEEN ? AND ?", []any{int64(1), int64(5)}},
		{"NotBetweenOpen", "n", "not between", `RAW:["",5]`, "i.n > ?", []any{int64(5)}},
		{"BoolTrue", "flag", "=", "RAW:true", "i.flag = ?", []any{int64(1)}},
		{"BoolString", "flag", "!=", "0", "i.flag <> ?", []any{int64(0)}},
		{"EnumInt", "status", "in", "RAW:[1,\"4\"]", "i.status IN (?,?)", []any{int64(1), int64(4)}},
		{"StringFromNumber", "name", "=", 12, "i.name = ?", []any{"12"}},
		{"MissingOperatorIsEq", "n", "", 7, "i.n = ?", []any{int64(7)}},
		{"Virtual", "tag", "=", "red", "(EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag = ?))", []any{"red"}},
		{"VirtualNegative", "tag", "not like", "r", `(NOT EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag LIKE ? ESCAPE '\'))`, []any{"%r%"}},
		{"TimeDateEq", "at", "=", "2026-01-02", "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-02 00:00:00"), cst("2026-01-03 00:00:00")}},
		{"TimeDateNe", "at", "!=", "2026-01-02", "(i.at < ? OR i.at >= ?)", []any{cst("2026-01-02 00:00:00"), cst("2026-01-03 00:00:00")}},
		{"TimeDateGtStartsNextDay", "at", ">", "2026-01-02", "i.at >= ?", []any{cst("2026-01-03 00:00:00")}},
		{"TimeDateGe", "at", ">=", "2026-01-02", "i.at >= ?", []any{cst("2026-01-02 00:00:00")}},
		{"TimeDateLt", "at", "<", "2026-01-02", "i.at < ?", []any{cst("2026-01-02 00:00:00")}},
		{"TimeDateLeIncludesDay", "at", "<=", "2026-01-02", "i.at < ?", []any{cst("2026-01-03 00:00:00")}},
		{"TimeSecondLe", "at", "<=", "2026-01-02 23:59:59", "i.at < ?", []any{cst("2026-01-03 00:00:00")}},
		{"TimeRFC3339Exact", "at", "<=", "2026-01-02T10:00:00+08:00", "i.at <= ?", []any{cst("2026-01-02 10:00:00")}},
		{"TimeRFC3339Eq", "at", "=", "2026-01-02T02:00:00Z", "i.at = ?", []any{cst("2026-01-02 10:00:00")}},
		{"TimeBetweenDays", "at", "between", `RAW:["2026-01-01","2026-01-31"]`, "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-01 00:00:00"), cst("2026-02-01 00:00:00")}},
		{"TimeBetweenOpenEnd", "at", "between", `RAW:["2026-01-01 08:00:00",null]`, "(i.at >= ?)", []any{cst("2026-01-01 08:00:00")}},
		{"TimeNotBetween", "at", "not between", `RAW:["2026-01-01","2026-01-31"]`, "(i.at < ? OR i.at >= ?)", []any{cst("2026-01-01 00:00:00"), cst("2026-02-01 00:00:00")}},
		{"TimeIn", "at", "in", `RAW:["2026-01-01","2026-01-02T00:00:00Z"]`, "((i.at >= ? AND i.at < ?) OR i.at IN (?))", []any{cst("2026-01-01 00:00:00"), cst("2026-01-02 00:00:00"), cst("2026-01-02 08:00:00")}},
		{"TimeNotIn", "at", "not in", `RAW:["2026-01-01"]`, "(i.at < ? OR i.at >= ?)", []any{cst("2026-01-01 00:00:00"), cst("2026-01-02 00:00:00")}},
		{"TimeMinute", "at", "=", "2026-01-01T08:30", "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-01 08:30:00"), cst("2026-01-01 08:31:00")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, args := where(t, Request{Constraints: one("and", tt.column, tt.op, tt.value)})
			if s != tt.sql || !reflect.DeepEqual(args, tt.args) {
				t.Errorf("got  %s %v\nwant %s %v", s, args, tt.sql, tt.args)
			}
		})
	}
}

func TestPostgresUsesILikeAndCodePointSort(t *testing.T) {
	q, err := items.Parse(db.Postgres, Request{Search: "x", Constraints: one("and", "name", "not like", "y"), SortBy: `{"name":"asc","n":"desc"}`})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`i.name COLLATE "C" ASC`, "i.n DESC", "i.id DESC"}; !reflect.DeepEqual(q.OrderBy, want) {
		t.Errorf("order %q, want %q", q.OrderBy, want)
	}
	s, _, _ := q.Where.ToSql()
	if strings.Count(s, "ILIKE") != 3 || !strings.Contains(s, "NOT ILIKE") {
		t.Errorf("got %s", s)
	}
}

// TestExceptInvertsEveryOperator proves the spec's except rule: an except
// item is "and" with the inverse operator.
func TestExceptInvertsEveryOperator(t *testing.T) {
	values := map[Operator]any{In: "RAW:[1,2]", NotIn: "RAW:[1,2]", Between: "RAW:[1,2]", NotBetween: "RAW:[1,2]"}
	for op, inv := range inverse {
		for _, col := range []string{"n", "at", "name", "tag"} {
			c := items.Columns[col]
			if !allowed(c.Type, op) || !allowed(c.Type, inv) {
				continue
			}
			t.Run(string(op)+"/"+col, func(t *testing.T) {
				v, ok := values[op]
				if !ok {
					v = 1
				}
				if col == "at" {
					v = "2026-01-01"
					if _, list := values[op]; list {
						v = `RAW:["2026-01-01","2026-01-03"]`
					}
				}
				if col == "name" || col == "tag" {
					if _, list := values[op]; list {
						v = `RAW:["1","2"]`
					} else {
						v = "1"
					}
				}
				gotS, gotA := where(t, Request{Constraints: one("except", col, string(op), v)})
				wantS, wantA := where(t, Request{Constraints: one("and", col, string(inv), v)})
				if gotS != wantS || !reflect.DeepEqual(gotA, wantA) {
					t.Errorf("except %s: %s %v, want %s %v", op, gotS, gotA, wantS, wantA)
				}
			})
		}
	}
	if len(inverse) != 12 {
		t.Fatalf("operators: %d", len(inverse))
	}
	for op, inv := range inverse {
		if inverse[inv] != op {
			t.Errorf("inverse of inverse of %s is %s", op, inverse[inv])
		}
	}
}

func TestConditions(t *testing.T) {
	item := func(cond, col, op, v string) string {
		return fmt.Sprintf(`{"condition":%q,"operator":%q,"column":%q,"value":%s}`, cond, op, col, v)
	}
	grp := func(cond string, its ...string) string {
		return fmt.Sprintf(`{"condition":%q,"constraint":[%s]}`, cond, strings.Join(its, ","))
	}
	a := item("and", "n", "=", "1")
	b := item("and", "n", "=", "2")
	orB := item("or", "n", "=", "2")
	c := item("and", "n", "=", "3")
	orC := item("or", "n", "=", "3")
	exC := item("except", "n", "=", "3")
	tests := []struct{ name, constraints, sql string }{
		{"AndJoinsItems", grp("and", a, b), "(i.n = ? AND i.n = ?)"},
		{"OrJoinsItems", grp("and", a, orB), "(i.n = ? OR i.n = ?)"},
		{"AndBindsTighterThanOr", grp("and", a, orB, c), "(i.n = ? OR (i.n = ? AND i.n = ?))"},
		{"OrAfterAnd", grp("and", a, b, orC), "((i.n = ? AND i.n = ?) OR i.n = ?)"},
		{"ExceptIsAndWithInverse", grp("and", a, exC), "(i.n = ? AND i.n <> ?)"},
		{"ExceptFirstItemNegates", grp("and", exC), "i.n <> ?"},
		{"OrFirstItemIsPlain", grp("and", orC), "i.n = ?"},
		{"MissingConditionIsAnd", `{"constraint":[{"operator":"=","column":"n","value":1},{"column":"n","value":2}]}`, "(i.n = ? AND i.n = ?)"},
		{"GroupsAnd", grp("and", a) + "," + grp("and", b), "(i.n = ? AND i.n = ?)"},
		{"GroupsOr", grp("and", a, b) + "," + grp("or", c), "((i.n = ? AND i.n = ?) OR i.n = ?)"},
		{"GroupExceptNegatesGroup", grp("and", a) + "," + grp("except", b, orC), "(i.n = ? AND NOT ((i.n = ? OR i.n = ?)))"},
		{"ModelAndSymbolAliases", grp("and", `{"model":"n","symbol":">","value":1}`), "i.n > ?"},
		{"EmptyValueIgnored", grp("and", a, item("or", "n", "=", `""`), item("and", "n", "in", "[]"), item("and", "n", "=", "null")), "i.n = ?"},
		{"EmptyGroupIgnored", grp("and") + "," + grp("or", a), "i.n = ?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := where(t, Request{Constraints: `{"constraints":[` + tt.constraints + `]}`})
			if s != tt.sql {
				t.Errorf("got  %s\nwant %s", s, tt.sql)
			}
		})
	}
	t.Run("BareArrayOfGroups", func(t *testing.T) {
		s, _ := where(t, Request{Constraints: "[" + grp("and", a, orB) + "]"})
		if s != "(i.n = ? OR i.n = ?)" {
			t.Errorf("got %s", s)
		}
	})
	t.Run("EmptyConstraints", func(t *testing.T) {
		for _, c := range []string{"", " ", "null", "[]", `{"constraints":[]}`, `{}`} {
			_, s, _ := parse(t, Request{Constraints: c})
			if s != "(1=1)" {
				t.Errorf("%q: %s", c, s)
			}
		}
	})
}

func TestChildren(t *testing.T) {
	tests := []struct{ name, item, sql string }{
		{"ChildAndJoinsParent",
			`{"column":"n","operator":">","value":1,"child":[{"condition":"and","column":"n","operator":"<","value":9}]}`,
			"(i.n > ? AND i.n < ?)"},
		{"ChildOrJoinsParent",
			`{"column":"n","operator":"=","value":1,"child":[{"condition":"or","column":"n","operator":"=","value":2},{"condition":"or","column":"n","operator":"=","value":3}]}`,
			"(i.n = ? OR i.n = ? OR i.n = ?)"},
		{"ChildrenKeepPrecedence",
			`{"column":"n","operator":"=","value":1,"child":[{"condition":"or","column":"n","operator":"=","value":2},{"condition":"and","column":"name","operator":"=","value":"x"}]}`,
			"(i.n = ? OR (i.n = ? AND i.name = ?))"},
		{"ChildExceptInvertsChild",
			`{"column":"n","operator":"=","value":1,"child":[{"condition":"except","column":"n","operator":"in","value":[2,3]}]}`,
			"(i.n = ? AND i.n NOT IN (?,?))"},
		{"GroupOnlyItem",
			`{"condition":"and","child":[{"column":"n","operator":"=","value":2},{"condition":"or","column":"n","operator":"=","value":3}]}`,
			"(i.n = ? OR i.n = ?)"},
		{"EmptyParentKeepsChildren",
			`{"column":"n","operator":"=","value":"","child":[{"column":"n","operator":"=","value":2}]}`,
			"i.n = ?"},
		{"Nested",
			`{"column":"n","value":1,"child":[{"condition":"or","column":"n","value":2,"child":[{"condition":"and","column":"name","value":"x"}]}]}`,
			"(i.n = ? OR (i.n = ? AND i.name = ?))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := where(t, Request{Constraints: `{"constraints":[{"condition":"and","constraint":[` + tt.item + `]}]}`})
			if s != tt.sql {
				t.Errorf("got  %s\nwant %s", s, tt.sql)
			}
		})
	}
	t.Run("ItemWithChildrenJoinedBySiblingCondition", func(t *testing.T) {
		s, _ := where(t, Request{Constraints: `[{"constraint":[{"column":"name","value":"a"},
			{"condition":"or","column":"n","value":1,"child":[{"condition":"and","column":"n","operator":"<","value":9}]}]}]`})
		if want := "(i.name = ? OR (i.n = ? AND i.n < ?))"; s != want {
			t.Errorf("got %s, want %s", s, want)
		}
	})
	t.Run("ExceptOnItemWithChildrenNegatesTheGroup", func(t *testing.T) {
		s, _ := where(t, Request{Constraints: `[{"constraint":[{"column":"name","value":"a"},
			{"condition":"except","column":"n","value":1,"child":[{"condition":"or","column":"n","value":2}]}]}]`})
		if want := "(i.name = ? AND NOT ((i.n = ? OR i.n = ?)))"; s != want {
			t.Errorf("got %s, want %s", s, want)
		}
	})
}

func TestParams(t *testing.T) {
	tests := []struct {
		name, params, sql string
		args              []any
	}{
		{"ScalarIsEq", `{"name":"x"}`, "i.name = ?", []any{"x"}},
		{"ArrayIsIn", `{"n":[1,2,"3"]}`, "i.n IN (?,?,?)", []any{int64(1), int64(2), int64(3)}},
		{"KeysKeepOrder", `{"n":1,"name":"x","score":"1.5"}`, "(i.n = ? AND i.name = ? AND i.score = ?)", []any{int64(1), "x", 1.5}},
		{"TimeRange", `{"at":["2026-01-01","2026-01-02"]}`, "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-01 00:00:00"), cst("2026-01-03 00:00:00")}},
		{"TimeRangeDatetime", `{"at":["2026-01-01 00:00:00","2026-01-01 23:59:59"]}`, "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-01 00:00:00"), cst("2026-01-02 00:00:00")}},
		{"TimeRangeOpenStart", `{"at":["","2026-01-02"]}`, "(i.at < ?)", []any{cst("2026-01-03 00:00:00")}},
		{"TimeScalarIsTheDay", `{"at":"2026-01-02"}`, "(i.at >= ? AND i.at < ?)", []any{cst("2026-01-02 00:00:00"), cst("2026-01-03 00:00:00")}},
		{"EmptyValuesDropped", `{"name":"","n":null,"score":[],"at":["",""],"flag":"  ","status":[null,""]}`, "(1=1)", nil},
		{"ExtraParamIsNotACondition", `{"tab":"pending","n":1}`, "i.n = ?", []any{int64(1)}},
		{"LenientDropsNonNumeric", `{"hospital":"abc"}`, "(1=1)", nil},
		{"LenientKeepsNumeric", `{"hospital":"12"}`, "i.n = ?", []any{int64(12)}},
		{"VirtualIn", `{"tag":["a","b"]}`, "(EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag IN (?,?)))", []any{"a", "b"}},
		{"EmptyObject", `{}`, "(1=1)", nil},
		{"EmptyArray", `[]`, "(1=1)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, args := where(t, Request{Params: tt.params})
			if s != tt.sql || !reflect.DeepEqual(args, tt.args) && len(tt.args)+len(args) > 0 {
				t.Errorf("got  %s %v\nwant %s %v", s, args, tt.sql, tt.args)
			}
		})
	}
	t.Run("ExtraValuesReturned", func(t *testing.T) {
		q, _, _ := parse(t, Request{Params: `{"tab":"pending"}`})
		if q.ExtraString("tab") != "pending" || q.ExtraString("nope") != "" {
			t.Errorf("extra %v", q.Extra)
		}
		q, _, _ = parse(t, Request{Params: `{"tab":""}`})
		if _, ok := q.Extra["tab"]; ok {
			t.Errorf("empty extra kept: %v", q.Extra)
		}
		q, _, _ = parse(t, Request{Params: `{"tab":3}`})
		if q.ExtraString("tab") != "3" {
			t.Errorf("numeric extra %v", q.Extra)
		}
	})
	t.Run("LocationOverride", func(t *testing.T) {
		q, err := items.Parse(db.SQLite, Request{Params: `{"at":"2026-01-02 10:00:00"}`, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		_, args, _ := q.Where.ToSql()
		if !args[0].(time.Time).Equal(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)) {
			t.Errorf("args %v", args)
		}
	})
	t.Run("SearchParamsConstraintsAreAnded", func(t *testing.T) {
		s, _ := where(t, Request{Params: `{"n":1}`, Search: "q", Constraints: one("and", "name", "=", "x")})
		want := `(i.n = ? AND (i.name LIKE ? ESCAPE '\' OR (EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag LIKE ? ESCAPE '\'))) AND i.name = ?)`
		if s != want {
			t.Errorf("got  %s\nwant %s", s, want)
		}
	})
}

func TestSearch(t *testing.T) {
	like := `i.name LIKE ? ESCAPE '\'`
	tag := `(EXISTS (SELECT 1 FROM lq_tags t WHERE t.item_id = i.id AND t.tag LIKE ? ESCAPE '\'))`
	tests := []struct {
		name, search, sql string
		args              []any
	}{
		{"TextOnStringColumns", "abc", "(" + like + " OR " + tag + ")", []any{"%abc%", "%abc%"}},
		{"NumberAlsoMatchesId", " 42 ", "(i.id = ? OR " + like + " OR " + tag + ")", []any{int64(42), "%42%", "%42%"}},
		{"WildcardsAreLiteral", `50%_\`, "(" + like + " OR " + tag + ")", []any{`%50\%\_\\%`, `%50\%\_\\%`}},
		{"Chinese", "病理", "(" + like + " OR " + tag + ")", []any{"%病理%", "%病理%"}},
		{"CappedAt100Runes", strings.Repeat("病", 150), "(" + like + " OR " + tag + ")", []any{"%" + strings.Repeat("病", 100) + "%", "%" + strings.Repeat("病", 100) + "%"}},
		{"BlankIsNoSearch", "   ", "(1=1)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, args := where(t, Request{Search: tt.search})
			if s != tt.sql || (len(args)+len(tt.args) > 0 && !reflect.DeepEqual(args, tt.args)) {
				t.Errorf("got  %s %v\nwant %s %v", s, args, tt.sql, tt.args)
			}
		})
	}
	t.Run("NoSearchableColumnMatchesNothing", func(t *testing.T) {
		r := &Resource{Columns: map[string]Column{"id": {Expr: "id", Type: Int, Search: true}}}
		q, err := r.Parse(db.SQLite, Request{Search: "abc"})
		if err != nil {
			t.Fatal(err)
		}
		if s, _, _ := q.Where.ToSql(); s != "(1=0)" {
			t.Errorf("got %s", s)
		}
	})
}

func TestSort(t *testing.T) {
	tests := []struct {
		name, sortBy string
		want         []string
	}{
		{"DefaultAndTieBreak", "", []string{"i.at DESC NULLS LAST", "i.id DESC"}},
		{"OrderPreserved", `{"name":"desc","n":"asc"}`, []string{"i.name DESC", "i.n ASC", "i.id DESC"}},
		{"OrderPreservedReversed", `{"n":"asc","name":"desc"}`, []string{"i.n ASC", "i.name DESC", "i.id DESC"}},
		{"NoneAndEmptySkipped", `{"name":"","n":"none","score":null,"kind":"ASC"}`, []string{"i.kind ASC", "i.id DESC"}},
		{"AllNoneFallsBackToDefault", `{"name":"none"}`, []string{"i.at DESC NULLS LAST", "i.id DESC"}},
		{"TieBreakNotRepeated", `{"id":"asc"}`, []string{"i.id ASC"}},
		{"NullableSortsNullsFirstOnAsc", `{"at":"asc"}`, []string{"i.at ASC NULLS FIRST", "i.id DESC"}},
		{"NullableSortsNullsLastOnDesc", `{"at":"desc"}`, []string{"i.at DESC NULLS LAST", "i.id DESC"}},
		{"AntdNames", `{"n":"descend"}`, []string{"i.n DESC", "i.id DESC"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _, _ := parse(t, Request{SortBy: tt.sortBy})
			if !reflect.DeepEqual(q.OrderBy, tt.want) {
				t.Errorf("got %q, want %q", q.OrderBy, tt.want)
			}
		})
	}
}

func TestPage(t *testing.T) {
	tests := []struct {
		name, page, size string
		wantPage, wantSz int
	}{
		{"Defaults", "", "", 1, 20},
		{"Given", "3", "50", 3, 50},
		{"UserListSize", "1", "10000", 1, 10000},
		{"Spaces", " 2 ", " 100 ", 2, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _, _ := parse(t, Request{Page: tt.page, PageSize: tt.size})
			if q.Page != tt.wantPage || q.PageSize != tt.wantSz {
				t.Errorf("got %d/%d", q.Page, q.PageSize)
			}
		})
	}
	t.Run("ResourcePageSize", func(t *testing.T) {
		r := &Resource{PageSize: 1000}
		q, err := r.Parse(db.SQLite, Request{})
		if err != nil || q.PageSize != 1000 {
			t.Errorf("got %v %v", q, err)
		}
		if q, _ = r.Parse(db.SQLite, Request{PageSize: "50"}); q.PageSize != 50 {
			t.Errorf("request size ignored: %d", q.PageSize)
		}
	})
	t.Run("ApplyAddsLimitOffset", func(t *testing.T) {
		q, _, _ := parse(t, Request{Page: "3", PageSize: "50", Params: `{"n":1}`})
		s, args, err := q.Apply(sq.Select("i.id").From("lq_items i")).ToSql()
		want := "SELECT i.id FROM lq_items i WHERE i.n = ? ORDER BY i.at DESC NULLS LAST, i.id DESC LIMIT 50 OFFSET 100"
		if err != nil || s != want || !reflect.DeepEqual(args, []any{int64(1)}) {
			t.Errorf("got %s %v %v", s, args, err)
		}
		s, _, _ = q.ApplyCount(sq.Select("COUNT(*)").From("lq_items i")).ToSql()
		if s != "SELECT COUNT(*) FROM lq_items i WHERE i.n = ?" {
			t.Errorf("count: %s", s)
		}
		q, _, _ = parse(t, Request{})
		if s, _, _ = q.ApplyCount(sq.Select("COUNT(*)").From("lq_items i")).ToSql(); s != "SELECT COUNT(*) FROM lq_items i" {
			t.Errorf("empty where: %s", s)
		}
	})
	t.Run("Pagination", func(t *testing.T) {
		q := &Query{Page: 2, PageSize: 20}
		for total, pages := range map[int64]int{0: 1, 1: 1, 20: 1, 21: 2, 41: 3} {
			if p := q.Pagination(total); p.TotalPage != pages || p.Total != total || p.CurrentPage != 2 || p.PerPage != 20 {
				t.Errorf("total %d: %+v", total, p)
			}
		}
	})
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("x", 100)
	deep := `{"column":"n","value":1}`
	for range 6 {
		deep = `{"column":"n","value":1,"child":[` + deep + `]}`
	}
	var many []string
	for range MaxConditions + 1 {
		many = append(many, `{"column":"n","value":1}`)
	}
	var manyIn []string
	for i := range MaxIn + 1 {
		manyIn = append(manyIn, fmt.Sprint(i))
	}
	tests := []struct {
		name string
		req  Request
		key  string
		args map[string]any
	}{
		{"BadJSONParams", Request{Params: `{"n":`}, KeyBadJSON, map[string]any{"param": "params"}},
		{"BadJSONParamsTrailing", Request{Params: `{"n":1} x`}, KeyBadJSON, map[string]any{"param": "params"}},
		{"BadJSONParamsNotObject", Request{Params: `"n"`}, KeyBadJSON, map[string]any{"param": "params"}},
		{"BadJSONSort", Request{SortBy: `created_at desc`}, KeyBadJSON, map[string]any{"param": "sort_by"}},
		{"BadJSONConstraints", Request{Constraints: `{"constraints":[{`}, KeyBadJSON, map[string]any{"param": "constraints"}},
		{"BadJSONConstraintsShape", Request{Constraints: `{"constraints":{"a":1}}`}, KeyBadJSON, map[string]any{"param": "constraints"}},
		{"UnknownParam", Request{Params: `{"nope":1}`}, KeyUnknownColumn, map[string]any{"column": "nope"}},
		{"UnknownParamEvenIfEmpty", Request{Params: `{"nope":""}`}, KeyUnknownColumn, map[string]any{"column": "nope"}},
		{"NotFilterable", Request{Params: `{"hidden":"x"}`}, KeyUnknownColumn, map[string]any{"column": "hidden"}},
		{"UnknownConstraintColumn", Request{Constraints: one("and", "nope", "=", 1)}, KeyUnknownColumn, map[string]any{"column": "nope"}},
		{"MissingColumn", Request{Constraints: `[{"constraint":[{"operator":"=","value":1}]}]`}, KeyUnknownColumn, map[string]any{"column": ""}},
		{"UnknownSortColumn", Request{SortBy: `{"nope":"asc"}`}, KeyUnknownColumn, map[string]any{"column": "nope"}},
		{"NotSortable", Request{SortBy: `{"flag":"asc"}`}, KeyUnknownColumn, map[string]any{"column": "flag"}},
		{"LongColumnClipped", Request{Params: `{"` + long + `":1}`}, KeyUnknownColumn, map[string]any{"column": strings.Repeat("x", 64) + "…"}},
		{"LongChineseColumnClipped", Request{Params: `{"` + strings.Repeat("病", 70) + `":1}`}, KeyUnknownColumn, map[string]any{"column": strings.Repeat("病", 64) + "…"}},
		{"InvalidUTF8Column", Request{Params: "{\"a\xff\":1}"}, KeyUnknownColumn, map[string]any{"column": "a\uFFFD"}},
		{"UnknownOperator", Request{Constraints: one("and", "n", "~", 1)}, KeyUnknownOperator, map[string]any{"operator": "~"}},
		{"UnknownOperatorSQL", Request{Constraints: one("and", "n", "= 1 OR 1 =", 1)}, KeyUnknownOperator, map[string]any{"operator": "= 1 OR 1 ="}},
		{"UnknownItemCondition", Request{Constraints: one("xor", "n", "=", 1)}, KeyUnknownCondition, map[string]any{"condition": "xor"}},
		{"UnknownGroupCondition", Request{Constraints: `[{"condition":"nand","constraint":[]}]`}, KeyUnknownCondition, map[string]any{"condition": "nand"}},
		{"LikeOnInt", Request{Constraints: one("and", "n", "like", 1)}, KeyBadOperator, map[string]any{"operator": "like", "column": "n"}},
		{"GtOnBool", Request{Constraints: one("and", "flag", ">", 1)}, KeyBadOperator, map[string]any{"operator": ">", "column": "flag"}},
		{"IntNotNumber", Request{Params: `{"n":"abc"}`}, KeyBadValue, map[string]any{"column": "n"}},
		{"IntFraction", Request{Params: `{"n":1.5}`}, KeyBadValue, map[string]any{"column": "n"}},
		{"FloatNotNumber", Request{Constraints: one("and", "score", ">", "NaN")}, KeyBadValue, map[string]any{"column": "score"}},
		{"BoolNotBool", Request{Params: `{"flag":"maybe"}`}, KeyBadValue, map[string]any{"column": "flag"}},
		{"TimeNotTime", Request{Params: `{"at":"yesterday"}`}, KeyBadValue, map[string]any{"column": "at"}},
		{"TimeRangeOfThree", Request{Params: `{"at":["2026-01-01","2026-01-02","2026-01-03"]}`}, KeyBadValue, map[string]any{"column": "at"}},
		{"EnumOutside", Request{Params: `{"status":3}`}, KeyBadValue, map[string]any{"column": "status"}},
		{"EnumStringOutside", Request{Constraints: one("and", "kind", "in", `RAW:["a","c"]`)}, KeyBadValue, map[string]any{"column": "kind"}},
		{"EqWithArray", Request{Constraints: one("and", "n", "=", "RAW:[1]")}, KeyBadValue, map[string]any{"column": "n"}},
		{"BetweenOneValue", Request{Constraints: one("and", "n", "between", "RAW:[1]")}, KeyBadValue, map[string]any{"column": "n"}},
		{"ObjectValue", Request{Params: `{"n":{"$gt":1}}`}, KeyBadValue, map[string]any{"column": "n"}},
		{"ObjectValueConstraint", Request{Constraints: one("and", "n", "=", `RAW:{"a":1}`)}, KeyBadValue, map[string]any{"column": "n"}},
		{"LikeWithBool", Request{Constraints: one("and", "name", "like", `RAW:true`)}, KeyBadValue, map[string]any{"column": "name"}},
		{"BadSortDirection", Request{SortBy: `{"n":"up"}`}, KeyBadSort, nil},
		{"BadSortType", Request{SortBy: `{"n":1}`}, KeyBadSort, nil},
		{"PageZero", Request{Page: "0"}, KeyBadPage, nil},
		{"PageNotNumber", Request{Page: "a"}, KeyBadPage, nil},
		{"PageTooFar", Request{Page: "1000001"}, KeyBadPage, nil},
		{"PageSizeZero", Request{PageSize: "0"}, KeyBadPage, nil},
		{"PageSizeTooBig", Request{PageSize: "10001"}, KeyBadPage, nil},
		{"PageSizeNegative", Request{PageSize: "-5"}, KeyBadPage, nil},
		{"TooDeep", Request{Constraints: `[{"constraint":[` + deep + `]}]`}, KeyTooComplex, nil},
		{"TooMany", Request{Constraints: `[{"constraint":[` + strings.Join(many, ",") + `]}]`}, KeyTooComplex, nil},
		{"TooManyIn", Request{Params: `{"n":[` + strings.Join(manyIn, ",") + `]}`}, KeyTooComplex, nil},
		{"TooBigParams", Request{Params: `{"name":"` + strings.Repeat("a", MaxJSON) + `"}`}, KeyTooComplex, nil},
		{"TooBigConstraints", Request{Constraints: `[` + strings.Repeat(" ", MaxJSON) + `]`}, KeyTooComplex, nil},
		{"TooManySortKeys", Request{SortBy: `{"id":"asc","name":"asc","n":"asc","score":"asc","kind":"asc","at":"asc","a":"","b":"","c":"","d":"","e":""}`}, KeyTooComplex, nil},
		{"LenientStillLimited", Request{Params: `{"hospital":[` + strings.Join(manyIn, ",") + `]}`}, KeyTooComplex, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := items.Parse(db.SQLite, tt.req)
			var ae *apperr.Error
			if !errorAs(err, &ae) || ae.Code != apperr.Invalid || ae.Key != tt.key {
				t.Fatalf("got %v, want %s", err, tt.key)
			}
			if !reflect.DeepEqual(ae.Args, tt.args) && len(ae.Args)+len(tt.args) > 0 {
				t.Errorf("args %v, want %v", ae.Args, tt.args)
			}
		})
	}
	t.Run("DepthFiveIsAllowed", func(t *testing.T) {
		ok := `{"column":"n","value":1}`
		for range MaxDepth - 1 {
			ok = `{"column":"n","value":1,"child":[` + ok + `]}`
		}
		if _, err := items.Parse(db.SQLite, Request{Constraints: `[{"constraint":[` + ok + `]}]`}); err != nil {
			t.Error(err)
		}
	})
}

func errorAs(err error, target **apperr.Error) bool {
	e, ok := err.(*apperr.Error)
	if ok {
		*target = e
	}
	return ok
}

// TestInjection proves that SQL-looking input is either a bound value or
// refused as an unknown column/operator; it never reaches the SQL text.
func TestInjection(t *testing.T) {
	evil := []string{`'; DROP TABLE users; --`, `name) OR (1=1`, `"id; drop"`, `users.password`, `1=1`}
	for _, e := range evil {
		t.Run("Value/"+e, func(t *testing.T) {
			for _, req := range []Request{
				{Search: e},
				{Params: fmt.Sprintf(`{"name":%q}`, e)},
				{Constraints: one("and", "name", "like", e)},
				{Constraints: one("except", "name", "in", "RAW:"+fmt.Sprintf("[%q]", e))},
			} {
				s, args := where(t, req)
				if strings.Contains(s, e) || strings.Contains(strings.ToUpper(s), "DROP") {
					t.Errorf("%+v reached SQL: %s", req, s)
				}
				found := false
				for _, a := range args {
					found = found || strings.Contains(fmt.Sprint(a), strings.TrimSpace(e))
				}
				if !found {
					t.Errorf("%+v: value not bound: %v", req, args)
				}
			}
		})
		t.Run("Column/"+e, func(t *testing.T) {
			for _, req := range []Request{
				{Params: fmt.Sprintf(`{%q:1}`, e)},
				{SortBy: fmt.Sprintf(`{%q:"asc"}`, e)},
				{Constraints: one("and", e, "=", 1)},
			} {
				_, err := items.Parse(db.SQLite, req)
				if !apperr.Is(err, KeyUnknownColumn) {
					t.Errorf("%+v: %v", req, err)
				}
			}
		})
	}
	t.Run("SortDirection", func(t *testing.T) {
		_, err := items.Parse(db.SQLite, Request{SortBy: `{"n":"asc; DROP TABLE users"}`})
		if !apperr.Is(err, KeyBadSort) {
			t.Errorf("got %v", err)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	req := Request{
		Page: "2", PageSize: "50", Search: "病理 50%",
		SortBy: `{"at":"desc","name":"asc"}`,
		Params: `{"status":[1,2],"at":["2026-01-01","2026-01-31"],"tab":"pending","hospital":"3"}`,
		Constraints: `{"constraints":[{"condition":"and","constraint":[
			{"condition":"and","operator":"like","column":"name","value":"abc"},
			{"condition":"or","operator":"between","column":"n","value":[1,9],"child":[
				{"condition":"except","operator":"in","column":"tag","value":["a","b"]}]}]}]}`,
	}
	b.ReportAllocs()
	for b.Loop() {
		q, err := items.Parse(db.Postgres, req)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := q.Apply(sq.Select("i.id").From("lq_items i").PlaceholderFormat(sq.Dollar)).ToSql(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestVirtualConditionStaysWhole(t *testing.T) {
	r := &Resource{Columns: map[string]Column{
		"n": {Expr: "n", Type: Int, Filter: true},
		"either": {Type: Int, Filter: true, Where: func(_ db.Dialect, _ Operator, v []any) (sq.Sqlizer, error) {
			return sq.Expr("a = ? OR b = ?", v[0], v[0]), nil
		}},
	}}
	q, err := r.Parse(db.SQLite, Request{Params: `{"n":1,"either":2}`})
	if err != nil {
		t.Fatal(err)
	}
	if s, _, _ := q.Where.ToSql(); s != "(n = ? AND (a = ? OR b = ?))" {
		t.Errorf("got %s", s)
	}
}
