package listquery_test

import (
	"fmt"
	"net/url"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

func Example() {
	users := &listquery.Resource{
		Columns: map[string]listquery.Column{
			"username":   {Expr: "u.username", Type: listquery.String, Sort: true, Filter: true, Search: true},
			"status":     {Expr: "u.status", Type: listquery.Int, Filter: true, Enum: []any{0, 1}},
			"created_at": {Expr: "u.created_at", Type: listquery.Time, Sort: true, Filter: true},
			"role": {Type: listquery.String, Filter: true, Where: func(d db.Dialect, op listquery.Operator, v []any) (sq.Sqlizer, error) {
				return listquery.Exists(d, "SELECT 1 FROM user_roles r WHERE r.user_id = u.id", "r.role", op, v)
			}},
		},
		DefaultSort: []string{"u.id DESC"},
		TieBreak:    "u.id DESC",
		ExtraParams: []string{"tab"},
	}
	v, _ := url.ParseQuery(`page=2&search=li&sort_by={"created_at":"desc"}` +
		`&params={"status":1,"tab":"locked"}` +
		`&constraints={"constraints":[{"condition":"and","constraint":[{"condition":"except","operator":"in","column":"role","value":["admin"]}]}]}`)
	q, err := users.Parse(db.Postgres, listquery.FromURL(v))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := sq.StatementBuilder.PlaceholderFormat(sq.Dollar).Select("u.id").From("users u")
	sql, args, _ := q.Apply(b).ToSql()
	fmt.Println(sql)
	fmt.Println(args, q.ExtraString("tab"))
	// Output:
	// SELECT u.id FROM users u WHERE (u.status = $1 AND (u.username ILIKE $2 ESCAPE '\') AND (NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role IN ($3)))) ORDER BY u.created_at DESC, u.id DESC LIMIT 20 OFFSET 20
	// [1 %li% admin] locked
}
