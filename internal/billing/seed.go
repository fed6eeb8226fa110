package billing

import (
	"context"
	"time"

	"telepath/internal/platform/db"
)

// SeedDemo adds the demo charge items and timeouts in tx (the demo package
// calls it on an empty database): five consultation and staining items, a
// 72-hour default limit and a 24-hour limit for urgent cases. It writes no
// audit records: seeding is not a user's action. now is the time they are
// made at.
func SeedDemo(ctx context.Context, tx *db.Tx, now time.Time) error {
	items := []struct {
		name, input, code string
		fen               int64
		unit              string
	}{
		{"常规会诊", "CGHZ", "270800001", 30000, "例"},
		{"疑难会诊", "YNHZ", "270800002", 50000, "例"},
		{"免疫组化", "MYZH", "270300001", 12000, "项"},
		{"特殊染色", "TSRS", "270200001", 8000, "项"},
		{"冰冻会诊", "BDHZ", "270800003", 40000, "例"},
	}
	for i, it := range items {
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("charge_items").SetMap(map[string]any{
			"name": it.name, "inner_code": "C" + string(rune('1'+i)), "input_code": it.input, "item_code": it.code,
			"price_fen": it.fen, "unit": it.unit, "number": 1, "status": 1, "created_at": now, "updated_at": now,
		}))
		if err != nil {
			return err
		}
	}
	for _, t := range []TimeoutConfig{
		{Name: "常规", Hours: 72, RemindHours: 24, IsDefault: 1},
		{Name: "加急", Hours: 24, RemindHours: 6, Expedite: 1},
	} {
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("timeout_configs").SetMap(map[string]any{
			"name": t.Name, "hours": t.Hours, "remind_hours": t.RemindHours, "expedite": t.Expedite,
			"is_default": t.IsDefault, "created_at": now, "updated_at": now,
		}))
		if err != nil {
			return err
		}
	}
	return nil
}
