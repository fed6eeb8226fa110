package listquery

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
)

// empty reports whether a decoded JSON value means "no filter".
func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		for _, e := range v {
			if !empty(e) {
				return false
			}
		}
		return true
	}
	return false
}

// cond builds the condition "column op value" from a decoded JSON value.
// It returns nil when the value is empty (the condition is dropped), or
// when lenient and the value does not convert.
func (p *parser) cond(name string, op Operator, raw any, lenient bool) (sq.Sqlizer, error) {
	col, err := p.column(name)
	if err != nil {
		return nil, err
	}
	if empty(raw) {
		return nil, nil
	}
	if !allowed(col.Type, op) {
		return nil, errOpFor(op, name)
	}
	vals, err := p.values(col, name, op, raw)
	if err != nil {
		if lenient && col.Lenient && !isComplex(err) {
			return nil, nil
		}
		return nil, err
	}
	if vals == nil {
		return nil, nil
	}
	if col.Where != nil {
		plain := make([]any, len(vals))
		for i, v := range vals {
			if s, ok := v.(span); ok {
				v = s.t
			}
			plain[i] = v
		}
		s, err := col.Where(p.d, op, plain)
		if err != nil || s == nil {
			return nil, err
		}
		return parens(s), nil
	}
	if col.Type == Time {
		return compareTime(col.Expr, op, vals), nil
	}
	return Compare(p.d, col.Expr, op, vals), nil
}

func isComplex(err error) bool { return apperr.Is(err, KeyTooComplex) }

// allowed says which operators a type supports.
func allowed(t Type, op Operator) bool {
	switch op {
	case Like, NotLike:
		return t == String
	case Gt, Ge, Lt, Le, Between, NotBetween:
		return t != Bool
	}
	return true
}

// values converts raw to the operands of op; nil means "drop the condition".
func (p *parser) values(col Column, name string, op Operator, raw any) ([]any, error) {
	list, isList := raw.([]any)
	switch op {
	case In, NotIn:
		if !isList {
			list = []any{raw}
		}
		if len(list) > MaxIn {
			return nil, errComplex()
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			if empty(e) {
				continue
			}
			v, err := p.convert(col, name, e, true)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		if len(out) == 0 {
			return nil, nil
		}
		return out, nil
	case Between, NotBetween:
		if !isList || len(list) != 2 {
			return nil, errValue(name)
		}
		out := make([]any, 2)
		for i, e := range list {
			if empty(e) {
				continue
			}
			v, err := p.convert(col, name, e, false)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		if out[0] == nil && out[1] == nil {
			return nil, nil
		}
		return out, nil
	}
	if isList {
		return nil, errValue(name)
	}
	if op == Like || op == NotLike {
		s, ok := raw.(string)
		if !ok {
			if n, isNum := raw.(json.Number); isNum {
				s = n.String()
			} else {
				return nil, errValue(name)
			}
		}
		return []any{LikePattern(strings.TrimSpace(s))}, nil
	}
	v, err := p.convert(col, name, raw, op == Eq || op == Ne)
	if err != nil {
		return nil, err
	}
	return []any{v}, nil
}

// convert turns one decoded JSON scalar into a bound value of the column's
// type, checking the enum when checkEnum.
func (p *parser) convert(col Column, name string, raw any, checkEnum bool) (any, error) {
	v, ok := convert(col.Type, raw, p.loc)
	if !ok {
		return nil, errValue(name)
	}
	if checkEnum && len(col.Enum) > 0 && !inEnum(col, v, p.loc) {
		return nil, errValue(name)
	}
	return v, nil
}

func inEnum(col Column, v any, loc *time.Location) bool {
	for _, e := range col.Enum {
		var ev any
		var ok bool
		switch e := e.(type) {
		case string:
			ev, ok = convert(col.Type, e, loc)
		default:
			ev, ok = convert(col.Type, json.Number(fmt.Sprint(e)), loc)
		}
		if ok && ev == v {
			return true
		}
	}
	return false
}

func convert(t Type, raw any, loc *time.Location) (any, bool) {
	switch t {
	case String:
		switch v := raw.(type) {
		case string:
			return v, true
		case json.Number:
			return v.String(), true
		case bool:
			return strconv.FormatBool(v), true
		}
	case Int:
		switch v := raw.(type) {
		case json.Number:
			n, err := strconv.ParseInt(v.String(), 10, 64)
			return n, err == nil
		case string:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	case Float:
		var s string
		switch v := raw.(type) {
		case json.Number:
			s = v.String()
		case string:
			s = strings.TrimSpace(v)
		default:
			return nil, false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return f, true
	case Bool:
		switch v := raw.(type) {
		case bool:
			if v {
				return int64(1), true
			}
			return int64(0), true
		case json.Number, string:
			switch strings.ToLower(strings.TrimSpace(fmt.Sprint(v))) {
			case "1", "true":
				return int64(1), true
			case "0", "false":
				return int64(0), true
			}
		}
	case Time:
		if s, ok := raw.(string); ok {
			return parseTime(strings.TrimSpace(s), loc)
		}
	}
	return nil, false
}

// timeLayouts are the zone-less forms, read in the request's location.
var timeLayouts = []struct {
	layout string
	step   func(time.Time) time.Time
}{
	{"2006-01-02", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
	{"2006-01-02 15:04:05", func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02T15:04:05", func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02 15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02T15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
}

func parseTime(s string, loc *time.Location) (any, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return span{t: t.UTC()}, true
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l.layout, s, loc); err == nil {
			if strings.Contains(s, ".") { // fractional seconds: an exact instant
				return span{t: t.UTC()}, true
			}
			return span{t: t.UTC(), width: l.step(t).Sub(t)}, true
		}
	}
	return nil, false
}

// parens keeps a condition from the resource's code whole whatever it
// contains (an OR would otherwise mix with the ANDs around it).
func parens(s sq.Sqlizer) sq.Sqlizer { return sq.Expr("(?)", s) }
