package listquery

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/db"
)

// member is one key of a JSON object, in document order.
type member struct {
	key string
	val any
}

// decodeObject reads a JSON object keeping the order of its keys; numbers
// stay json.Number. An empty array or null counts as an empty object.
func decodeObject(s, param string) ([]member, error) {
	if len(s) > MaxJSON {
		return nil, errComplex()
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, errJSON(param)
	}
	switch tok {
	case nil:
		return nil, end(dec, param)
	case json.Delim('['):
		if t, err := dec.Token(); err != nil || t != json.Delim(']') {
			return nil, errJSON(param)
		}
		return nil, end(dec, param)
	case json.Delim('{'):
	default:
		return nil, errJSON(param)
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errJSON(param)
		}
		key, _ := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, errJSON(param)
		}
		out = append(out, member{key, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, errJSON(param)
	}
	return out, end(dec, param)
}

// end checks that nothing follows the JSON value.
func end(dec *json.Decoder, param string) error {
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errJSON(param)
	}
	return nil
}

// params turns the params object into conditions: a scalar is =, an array
// is in (between for a two-element array on a Time column).
func (p *parser) params(raw string, extra map[string]any) ([]sq.Sqlizer, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	members, err := decodeObject(raw, "params")
	if err != nil {
		return nil, err
	}
	var out []sq.Sqlizer
	for _, m := range members {
		if slices.Contains(p.r.ExtraParams, m.key) {
			if !empty(m.val) {
				extra[m.key] = m.val
			}
			continue
		}
		if err := p.tick(); err != nil {
			return nil, err
		}
		col, err := p.column(m.key)
		if err != nil {
			return nil, err
		}
		op := Eq
		if list, ok := m.val.([]any); ok {
			op = In
			if col.Type == Time {
				if len(list) != 2 {
					if col.Lenient || empty(list) {
						continue
					}
					return nil, errValue(m.key)
				}
				op = Between
			}
		} else if _, ok := m.val.(map[string]any); ok {
			return nil, errValue(m.key)
		}
		c, err := p.cond(m.key, op, m.val, true)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// search ORs the free text over the searchable columns: LIKE on strings,
// = on numbers when the text is a number. Returns nil for no search.
func (p *parser) search(s string) sq.Sqlizer {
	s = SearchText(s)
	if s == "" {
		return nil
	}
	if p.r.SearchIndex != nil {
		if c := p.r.SearchIndex(p.d, s); c != nil {
			return c
		}
	}
	pattern := LikePattern(s)
	var or sq.Or
	for _, name := range p.r.searchColumns() {
		c := p.r.Columns[name]
		var op Operator
		var v any
		switch c.Type {
		case String:
			op, v = Like, pattern
		case Int:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				continue
			}
			op, v = Eq, n
		case Float:
			f, ok := convert(Float, s, p.loc)
			if !ok {
				continue
			}
			op, v = Eq, f
		default:
			continue
		}
		if c.Where != nil {
			if w, err := c.Where(p.d, op, []any{v}); err == nil && w != nil {
				or = append(or, parens(w))
			}
			continue
		}
		or = append(or, Compare(p.d, c.Expr, op, []any{v}))
	}
	return or // empty: (1=0), the text can match nothing
}

// parseSort reads sort_by, a JSON object of column → asc|desc in priority
// order; "", "none" and null skip a column. Text sorts by code point on both
// dialects (COLLATE "C" on PostgreSQL, SQLite's BINARY), whatever the
// database's locale.
func (r *Resource) parseSort(d db.Dialect, raw string) ([]string, error) {
	raw = strings.TrimSpace(raw)
	var terms []string
	if raw != "" {
		members, err := decodeObject(raw, "sort_by")
		if err != nil {
			return nil, err
		}
		if len(members) > MaxSortKeys {
			return nil, errComplex()
		}
		for _, m := range members {
			c, ok := r.Columns[m.key]
			if !ok || !c.Sort || c.Expr == "" {
				return nil, errColumn(m.key)
			}
			dir, ok := m.val.(string)
			if m.val != nil && !ok {
				return nil, errSort()
			}
			term := c.Expr
			if c.Type == String && d == db.Postgres {
				term += ` COLLATE "C"`
			}
			switch strings.ToLower(strings.TrimSpace(dir)) {
			case "", "none":
				continue
			case "asc", "ascend", "ascending":
				term += " ASC"
				if c.Nullable {
					term += " NULLS FIRST"
				}
			case "desc", "descend", "descending":
				term += " DESC"
				if c.Nullable {
					term += " NULLS LAST"
				}
			default:
				return nil, errSort()
			}
			terms = append(terms, term)
		}
	}
	if len(terms) == 0 {
		terms = append(terms, r.DefaultSort...)
	}
	if r.TieBreak != "" && !slices.ContainsFunc(terms, func(t string) bool {
		return sortExpr(t) == sortExpr(r.TieBreak)
	}) {
		terms = append(terms, r.TieBreak)
	}
	return terms, nil
}

// sortExpr strips the direction from an ORDER BY term.
func sortExpr(term string) string {
	f := strings.Fields(term)
	for len(f) > 1 {
		switch strings.ToUpper(f[len(f)-1]) {
		case "ASC", "DESC", "NULLS", "FIRST", "LAST":
			f = f[:len(f)-1]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}

// SearchText is the search text as the list searches it: trimmed, cut to
// MaxSearch runes; "" for no search.
func SearchText(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxSearch {
		s = string([]rune(s)[:MaxSearch])
	}
	return s
}
