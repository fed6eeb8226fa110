package library

import (
	"context"
	"time"

	"telepath/internal/platform/db"
)

// SeedDemo adds the demo libraries in tx (the demo package calls it on an
// empty database): routine (BL2026-00001), frozen (BD2026-00001) and cell
// (XB2026-00001) libraries, the cell library with one sub-library
// (TCT2026-00001). Frozen reports are released without a hesitation period. It
// writes no audit records: seeding is not a user's action. now is the time
// they are made at.
func SeedDemo(ctx context.Context, tx *db.Tx, now time.Time) error {
	add := func(in LibraryInput) (int64, error) {
		vals := in.values(nil, now)
		vals["created_at"] = vals["updated_at"]
		return db.InsertID(ctx, tx, tx.Builder().Insert("libraries").SetMap(vals))
	}
	year := func(prefix, name, kind string, delay int) LibraryInput {
		return LibraryInput{Name: name, PisCode: prefix, NumberName: "病理号", Prefix: prefix, MiddleDigits: 4, Symbol: "-", DigitLength: 5,
			DelayHours: &delay, ReportKind: kind}
	}
	if _, err := add(year("BL", "常规病理库", KindRoutine, DefaultDelayHours)); err != nil {
		return err
	}
	if _, err := add(year("BD", "冰冻病理库", KindFrozen, 0)); err != nil {
		return err
	}
	cell, err := add(year("XB", "细胞病理库", KindCell, DefaultDelayHours))
	if err != nil {
		return err
	}
	sub := year("TCT", "宫颈液基细胞学", KindCell, DefaultDelayHours)
	sub.PisCode, sub.ParentID = "XB-TCT", &cell
	_, err = add(sub)
	return err
}
