package structured

import (
	"context"
	"strings"
	"unicode/utf8"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Symbols lists the special characters of the diagnosis editor in order.
func (s *Service) Symbols(ctx context.Context) ([]Symbol, error) { return s.symbols(ctx, s.db) }

func (s *Service) symbols(ctx context.Context, q db.Querier) ([]Symbol, error) {
	out := []Symbol{}
	err := db.Select(ctx, q, &out, s.db.Builder().Select(`id, text, sort_order AS "rank"`).From("symbols").OrderBy("sort_order", "id"))
	return out, apperr.Wrap(err, "load symbols")
}

// SymbolInput adds one symbol.
type SymbolInput struct {
	Text string `json:"text" maxLength:"10"`
}

func checkSymbol(text, field string, v *apperr.Validation) string {
	text = strings.TrimSpace(text)
	if text == "" {
		v.Add(field, "field.required")
	} else if utf8.RuneCountInString(text) > maxSymbol {
		v.Add(field, "field.too_long", "max", maxSymbol)
	}
	return text
}

// StoreSymbol adds a symbol at the end of the list.
func (s *Service) StoreSymbol(ctx context.Context, in SymbolInput) ([]Symbol, error) {
	var out []Symbol
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var v apperr.Validation
		in.Text = checkSymbol(in.Text, "text", &v)
		all, err := s.symbols(ctx, tx)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x.Text == in.Text {
				v.Add("text", "structured.symbol_taken")
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := s.now()
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("symbols").SetMap(map[string]any{"text": in.Text, "sort_order": len(all),
			"created_at": now, "updated_at": now}))
		if err != nil {
			return apperr.Wrap(err, "insert symbol")
		}
		if out, err = s.symbols(ctx, tx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "symbol.create", ObjectType: "symbol", ObjectID: id, After: in})
	})
	return out, err
}

// SymbolList is the whole list of symbols, in order: an entry with an id
// changes that symbol, one without adds one; symbols left out are removed.
type SymbolList struct {
	Symbols []SymbolEntry `json:"symbols" maxItems:"200"`
}

// SymbolEntry is one symbol of the list.
type SymbolEntry struct {
	ID   int64  `json:"id,omitempty"`
	Text string `json:"text" maxLength:"10"`
}

// UpdateSymbols replaces the list of symbols, all or none.
func (s *Service) UpdateSymbols(ctx context.Context, in SymbolList) ([]Symbol, error) {
	var out []Symbol
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.symbols(ctx, tx)
		if err != nil {
			return err
		}
		known := map[int64]bool{}
		for _, x := range before {
			known[x.ID] = true
		}
		var v apperr.Validation
		seen := map[string]bool{}
		keep := map[int64]bool{}
		for i := range in.Symbols {
			e := &in.Symbols[i]
			field := "symbols." + itoa(i) + ".text"
			e.Text = checkSymbol(e.Text, field, &v)
			if seen[e.Text] {
				v.Add(field, "structured.symbol_taken")
			}
			seen[e.Text] = true
			if e.ID != 0 && !known[e.ID] {
				v.Add("symbols."+itoa(i)+".id", "error.not_found")
			}
			keep[e.ID] = true
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := s.now()
		for _, x := range before {
			if !keep[x.ID] {
				if _, err := db.Exec(ctx, tx, tx.Builder().Delete("symbols").Where("id = ?", x.ID)); err != nil {
					return apperr.Wrap(err, "delete symbol")
				}
			}
		}
		// Park the kept texts first: a swap of two texts must not meet the unique index.
		for _, e := range in.Symbols {
			if e.ID != 0 {
				if _, err := db.Exec(ctx, tx, tx.Builder().Update("symbols").Set("text", "#parked#"+itoa(int(e.ID))).Where("id = ?", e.ID)); err != nil {
					return apperr.Wrap(err, "update symbol")
				}
			}
		}
		for i, e := range in.Symbols {
			vals := map[string]any{"text": e.Text, "sort_order": i, "updated_at": now}
			if e.ID != 0 {
				if _, err := db.Exec(ctx, tx, tx.Builder().Update("symbols").SetMap(vals).Where("id = ?", e.ID)); err != nil {
					return apperr.Wrap(err, "update symbol")
				}
				continue
			}
			vals["created_at"] = now
			if _, err := db.InsertID(ctx, tx, tx.Builder().Insert("symbols").SetMap(vals)); err != nil {
				return apperr.Wrap(err, "insert symbol")
			}
		}
		if out, err = s.symbols(ctx, tx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "symbol.update", ObjectType: "symbol", Before: before, After: out})
	})
	return out, err
}
