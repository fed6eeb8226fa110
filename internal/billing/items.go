package billing

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

var itemList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":         {Expr: "i.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":       {Expr: "i.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"inner_code": {Expr: "i.inner_code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"input_code": {Expr: "i.input_code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"item_code":  {Expr: "i.item_code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"price_fen":  {Expr: "i.price_fen", Type: listquery.Int, Sort: true, Filter: true},
		"unit":       {Expr: "i.unit", Type: listquery.String, Sort: true, Filter: true},
		"status":     {Expr: "i.status", Type: listquery.Int, Sort: true, Filter: true},
		"created_at": {Expr: "i.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"updated_at": {Expr: "i.updated_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"i.id ASC"},
	TieBreak:    "i.id ASC",
	ExtraParams: []string{"tab"},
}

var itemTabs = listquery.StatusTabs("i.status")

const itemColumns = `i.id, i.name, i.inner_code, i.input_code, i.item_code, i.price_fen, i.unit, i.number, i.status, i.created_at, i.updated_at`

func (s *Service) selectItems() sq.SelectBuilder {
	return s.db.Builder().Select(itemColumns).From("charge_items i").Where("i.deleted_at IS NULL")
}

// ListItems returns a page of charge items.
func (s *Service) ListItems(ctx context.Context, req listquery.Request) ([]Item, listquery.Pagination, error) {
	q, err := itemList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(itemTabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count := s.db.Builder().Select("COUNT(*)").From("charge_items i").Where("i.deleted_at IS NULL").Where(tab)
	return listquery.Run[Item](ctx, s.db, q, s.selectItems().Where(tab), count)
}

// CountItems returns the tab counts of the charge item list: all, enabled, disabled.
func (s *Service) CountItems(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := itemList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From("charge_items i").Where("i.deleted_at IS NULL")
	return listquery.Counts(ctx, s.db, q, base, itemTabs)
}

// Item returns a charge item that has not been deleted.
func (s *Service) Item(ctx context.Context, id int64) (*Item, error) {
	return s.item(ctx, s.db, id)
}

func (s *Service) item(ctx context.Context, q db.Querier, id int64) (*Item, error) {
	var it Item
	if err := db.Get(ctx, q, &it, s.selectItems().Where("i.id = ?", id)); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load charge item")
	}
	return &it, nil
}

// Items returns the enabled, undeleted charge items among ids, by id, with
// their current price in fen (Item.Price). Unknown, deleted and disabled
// ids are simply absent: the caller decides whether that is an error.
func (s *Service) Items(ctx context.Context, ids []int64) (map[int64]Item, error) {
	out := map[int64]Item{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Item
	if err := db.Select(ctx, s.db, &rows, s.selectItems().Where(sq.Eq{"i.id": ids}).Where("i.status = 1")); err != nil {
		return nil, apperr.Wrap(err, "load charge items")
	}
	for _, it := range rows {
		out[it.ID] = it
	}
	return out, nil
}

// validateItem checks the merged item and normalises it.
// Field errors go to v; the error returned is internal.
func (s *Service) validateItem(ctx context.Context, q db.Querier, it *Item, v *apperr.Validation) error {
	it.Name, it.Unit = strings.TrimSpace(it.Name), strings.TrimSpace(it.Unit)
	it.InnerCode, it.InputCode, it.ItemCode = strings.TrimSpace(it.InnerCode), strings.TrimSpace(it.InputCode), strings.TrimSpace(it.ItemCode)
	if it.Name == "" {
		v.Add("name", "field.required")
	}
	if it.Number < 1 || it.Number > MaxItemNumber {
		v.Add("number", "billing.bad_number", "max", MaxItemNumber)
	}
	for field, val := range map[string]string{"name": it.Name, "item_code": it.ItemCode} {
		if val == "" || v.Has(field) {
			continue
		}
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("charge_items").
			Where(field+" = ? AND id <> ? AND deleted_at IS NULL", val, it.ID)); err != nil {
			return apperr.Wrap(err, "check %s", field)
		}
		if n > 0 {
			v.Add(field, "billing.taken")
		}
	}
	return nil
}

// price converts a client price into fen; a missing price is required.
func price(v *apperr.Validation, text *YuanText) Fen {
	if text == nil || *text == "" {
		v.Add("price", "field.required")
		return 0
	}
	f, err := ParseYuan("price", string(*text))
	var ae *apperr.Error
	if errors.As(err, &ae) {
		for _, m := range ae.Fields["price"] {
			v.Add("price", m.Key)
		}
	}
	return f
}

func (it *Item) values(now time.Time) map[string]any {
	return map[string]any{
		"name": it.Name, "inner_code": it.InnerCode, "input_code": it.InputCode, "item_code": it.ItemCode,
		"price_fen": int64(it.Price), "unit": it.Unit, "number": it.Number, "status": it.Status, "updated_at": now,
	}
}

// CreateItem adds a charge item (admin and center_admin, by route).
func (s *Service) CreateItem(ctx context.Context, in ItemInput) (*Item, error) {
	var v apperr.Validation
	it := Item{Name: in.Name, InnerCode: in.InnerCode, InputCode: in.InputCode, ItemCode: in.ItemCode,
		Price: price(&v, &in.Price), Unit: in.Unit, Number: intOr(in.Number, 1), Status: intOr(in.Status, 1)}
	var out *Item
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validateItem(ctx, tx, &it, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		vals := it.values(s.clock.Now())
		vals["created_at"] = vals["updated_at"]
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("charge_items").SetMap(vals))
		if err != nil {
			return apperr.Wrap(err, "insert charge item")
		}
		if out, err = s.item(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "charge_item.create", ObjectType: "charge_item", ObjectID: id, After: out})
	})
	return out, err
}

// UpdateItem changes the fields present in p.
func (s *Service) UpdateItem(ctx context.Context, p ItemPatch) (*Item, error) {
	var out *Item
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.item(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		it := *before
		var v apperr.Validation
		setStr(&it.Name, p.Name)
		setStr(&it.InnerCode, p.InnerCode)
		setStr(&it.InputCode, p.InputCode)
		setStr(&it.ItemCode, p.ItemCode)
		setStr(&it.Unit, p.Unit)
		if p.Price != nil {
			it.Price = price(&v, p.Price)
		}
		it.Number, it.Status = intOr(p.Number, it.Number), intOr(p.Status, it.Status)
		if err := s.validateItem(ctx, tx, &it, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("charge_items").SetMap(it.values(s.clock.Now())).Where("id = ?", p.ID)); err != nil {
			return apperr.Wrap(err, "update charge item")
		}
		if out, err = s.item(ctx, tx, p.ID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "charge_item.update", ObjectType: "charge_item", ObjectID: p.ID, Before: before, After: out})
	})
	return out, err
}

// DestroyItems deletes the charge items, all or none: one unknown id fails
// the whole request with NotFound. Charges already made keep their lines
// (name and price are copied into them).
func (s *Service) DestroyItems(ctx context.Context, ids []int64) error {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		for _, id := range ids {
			before, err := s.item(ctx, tx, id)
			if err != nil {
				return err
			}
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("charge_items").Set("deleted_at", now).Where("id = ?", id)); err != nil {
				return apperr.Wrap(err, "delete charge item")
			}
			if err := audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "charge_item.delete", ObjectType: "charge_item", ObjectID: id, Before: before}); err != nil {
				return err
			}
		}
		return nil
	})
}

func setStr(dst *string, p *string) {
	if p != nil {
		*dst = *p
	}
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
