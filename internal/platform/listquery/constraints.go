package listquery

import (
	"bytes"
	"encoding/json"
	"strings"

	sq "github.com/Masterminds/squirrel"
)

// Condition joins a group or item to what precedes it.
type Condition string

const (
	And    Condition = "and"
	Or     Condition = "or"
	Except Condition = "except" // and, with the operator inverted
)

func parseCondition(s string) (Condition, error) {
	switch c := Condition(strings.ToLower(strings.TrimSpace(s))); c {
	case "":
		return And, nil
	case And, Or, Except:
		return c, nil
	}
	return "", errCondition(s)
}

// group and item are the constraints syntax of the spec. Symbol and Model
// are accepted as the names the spec's search condition uses for operator
// and column.
type group struct {
	Condition  string `json:"condition"`
	Constraint []item `json:"constraint"`
}

type item struct {
	Condition string          `json:"condition"`
	Relation  string          `json:"relation"` // ignored
	Operator  string          `json:"operator"`
	Symbol    string          `json:"symbol"`
	Column    string          `json:"column"`
	Model     string          `json:"model"`
	Value     json.RawMessage `json:"value"`
	Child     []item          `json:"child"`
}

// joined is one operand of a condition list.
type joined struct {
	cond Condition
	sql  sq.Sqlizer
}

// constraints parses {"constraints":[group…]} or [group…] into one condition.
func (p *parser) constraints(raw string) (sq.Sqlizer, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" {
		return nil, nil
	}
	if len(raw) > MaxJSON {
		return nil, errComplex()
	}
	var groups []group
	if strings.HasPrefix(raw, "[") {
		if err := json.Unmarshal([]byte(raw), &groups); err != nil {
			return nil, errJSON("constraints")
		}
	} else {
		var w struct {
			Constraints []group `json:"constraints"`
		}
		if err := json.Unmarshal([]byte(raw), &w); err != nil {
			return nil, errJSON("constraints")
		}
		groups = w.Constraints
	}
	var parts []joined
	for _, g := range groups {
		c, err := parseCondition(g.Condition)
		if err != nil {
			return nil, err
		}
		s, err := p.items(g.Constraint, 1)
		if err != nil {
			return nil, err
		}
		if s == nil {
			continue
		}
		if c == Except {
			s = not(s)
		}
		parts = append(parts, joined{c, s})
	}
	return combine(parts), nil
}

// items builds one list of items (a group or a child list) at a depth.
func (p *parser) items(list []item, depth int) (sq.Sqlizer, error) {
	if depth > MaxDepth {
		return nil, errComplex()
	}
	var parts []joined
	for _, it := range list {
		s, c, err := p.item(it, depth)
		if err != nil {
			return nil, err
		}
		if s != nil {
			parts = append(parts, joined{c, s})
		}
	}
	return combine(parts), nil
}

// item builds one item with its children; nil when everything was empty.
func (p *parser) item(it item, depth int) (sq.Sqlizer, Condition, error) {
	if err := p.tick(); err != nil {
		return nil, "", err
	}
	c, err := parseCondition(it.Condition)
	if err != nil {
		return nil, "", err
	}
	column := it.Column
	if column == "" {
		column = it.Model
	}
	opText := it.Operator
	if opText == "" {
		opText = it.Symbol
	}
	var self sq.Sqlizer
	if column != "" || len(it.Child) == 0 {
		op := Eq
		if strings.TrimSpace(opText) != "" {
			if op, err = ParseOperator(opText); err != nil {
				return nil, "", err
			}
		}
		// except on a single item inverts its operator; with children the
		// whole group is negated below instead.
		if c == Except && len(it.Child) == 0 {
			op = op.Inverse()
		}
		var v any
		if len(bytes.TrimSpace(it.Value)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(it.Value))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				return nil, "", errJSON("constraints")
			}
		}
		if _, isObj := v.(map[string]any); isObj {
			return nil, "", errValue(column)
		}
		if self, err = p.cond(column, op, v, false); err != nil {
			return nil, "", err
		}
	}
	if len(it.Child) == 0 {
		return self, c, nil
	}
	parts := make([]joined, 0, len(it.Child)+1)
	if self != nil {
		parts = append(parts, joined{And, self})
	}
	for _, ch := range it.Child {
		if depth+1 > MaxDepth {
			return nil, "", errComplex()
		}
		s, cc, err := p.item(ch, depth+1)
		if err != nil {
			return nil, "", err
		}
		if s != nil {
			parts = append(parts, joined{cc, s})
		}
	}
	s := combine(parts)
	if s != nil && c == Except {
		s = not(s)
	}
	return s, c, nil
}

// combine joins operands left to right with SQL precedence: and (and
// except, already negated) binds tighter than or. nil for no operands.
func combine(parts []joined) sq.Sqlizer {
	var ors sq.Or
	var run sq.And
	for i, pt := range parts {
		if pt.cond == Or && i > 0 {
			ors = append(ors, flat(run))
			run = nil
		}
		run = append(run, pt.sql)
	}
	if len(run) == 0 {
		return nil
	}
	if len(ors) == 0 {
		return flat(run)
	}
	return append(ors, flat(run))
}

func flat(a sq.And) sq.Sqlizer {
	if len(a) == 1 {
		return a[0]
	}
	return a
}

// not negates a condition as a whole.
func not(s sq.Sqlizer) sq.Sqlizer { return sq.Expr("NOT (?)", s) }
