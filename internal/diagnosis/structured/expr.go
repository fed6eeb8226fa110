package structured

import (
	"errors"
	"strconv"
	"unicode"
)

// expr is a parsed calculation: numbers, number fields, + - * /, unary
// minus and parentheses. Nothing else is understood, so nothing else runs.
type expr interface {
	eval(vals map[string]float64) (float64, bool)
}

type num float64
type ref string
type neg struct{ x expr }
type bin struct {
	op   byte
	l, r expr
}

func (n num) eval(map[string]float64) (float64, bool) { return float64(n), true }
func (f ref) eval(v map[string]float64) (float64, bool) {
	x, ok := v[string(f)]
	return x, ok
}
func (n neg) eval(v map[string]float64) (float64, bool) {
	x, ok := n.x.eval(v)
	return -x, ok
}
func (b bin) eval(v map[string]float64) (float64, bool) {
	l, ok := b.l.eval(v)
	if !ok {
		return 0, false
	}
	r, ok := b.r.eval(v)
	if !ok {
		return 0, false
	}
	switch b.op {
	case '+':
		return l + r, true
	case '-':
		return l - r, true
	case '*':
		return l * r, true
	default: // '/': no value for a division by zero
		if r == 0 {
			return 0, false
		}
		return l / r, true
	}
}

var errSyntax = errors.New("syntax")

// maxExpr bounds an expression's length (and so its depth).
const maxExpr = 500

type parser struct {
	s    []rune
	i    int
	refs []string
}

// parseExpr parses a calculation and lists the fields it names.
func parseExpr(s string) (expr, []string, error) {
	if len(s) > maxExpr {
		return nil, nil, errSyntax
	}
	p := &parser{s: []rune(s)}
	e, err := p.sum()
	if err != nil {
		return nil, nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, nil, errSyntax
	}
	return e, p.refs, nil
}

func (p *parser) space() {
	for p.i < len(p.s) && unicode.IsSpace(p.s[p.i]) {
		p.i++
	}
}

func (p *parser) peek() rune {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) sum() (expr, error) {
	l, err := p.product()
	for err == nil && (p.peek() == '+' || p.peek() == '-') {
		op := byte(p.s[p.i])
		p.i++
		var r expr
		if r, err = p.product(); err == nil {
			l = bin{op, l, r}
		}
	}
	return l, err
}

func (p *parser) product() (expr, error) {
	l, err := p.unary()
	for err == nil && (p.peek() == '*' || p.peek() == '/') {
		op := byte(p.s[p.i])
		p.i++
		var r expr
		if r, err = p.unary(); err == nil {
			l = bin{op, l, r}
		}
	}
	return l, err
}

func (p *parser) unary() (expr, error) {
	if p.peek() == '-' {
		p.i++
		x, err := p.unary()
		return neg{x}, err
	}
	return p.atom()
}

func isIdent(r rune, first bool) bool {
	return r == '_' || (r < 128 && unicode.IsLetter(r)) || (!first && r < 128 && unicode.IsDigit(r))
}

func (p *parser) atom() (expr, error) {
	c := p.peek()
	switch {
	case c == '(':
		p.i++
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errSyntax
		}
		p.i++
		return e, nil
	case c >= '0' && c <= '9' || c == '.':
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
			p.i++
		}
		f, err := strconv.ParseFloat(string(p.s[start:p.i]), 64)
		if err != nil {
			return nil, errSyntax
		}
		return num(f), nil
	case isIdent(c, true):
		start := p.i
		for p.i < len(p.s) && isIdent(p.s[p.i], false) {
			p.i++
		}
		name := string(p.s[start:p.i])
		p.refs = append(p.refs, name)
		return ref(name), nil
	}
	return nil, errSyntax
}
