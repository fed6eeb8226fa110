package consultation

import (
	"context"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Collect adds a case the caller may see to their favourites (spec 2 §7
// /consultation/collection). Collecting a favourite again changes nothing.
func (s *Service) Collect(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := s.row(ctx, tx, id); err != nil {
			return err
		}
		var n int
		if err := db.Get(ctx, tx, &n, tx.Builder().Select("COUNT(*)").From("case_collections").Where("user_id = ? AND consult_id = ?", me, id)); err != nil {
			return apperr.Wrap(err, "load favourite")
		}
		if n > 0 {
			return nil
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("case_collections").Columns("user_id", "consult_id", "created_at").Values(me, id, s.now())); err != nil {
			return apperr.Wrap(err, "collect")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "consultation.collect", ObjectType: "consultation", ObjectID: id})
	})
}

// Uncollect removes a case from the caller's favourites.
func (s *Service) Uncollect(ctx context.Context, id int64) error {
	me := access.FromContext(ctx).UserID
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := db.Exec(ctx, tx, tx.Builder().Delete("case_collections").Where("user_id = ? AND consult_id = ?", me, id))
		if err != nil {
			return apperr.Wrap(err, "uncollect")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "consultation.uncollect", ObjectType: "consultation", ObjectID: id})
	})
}

// markCollected sets IsCollected on the rows the caller has in their favourites.
func (s *Service) markCollected(ctx context.Context, q db.Querier, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var have []int64
	err := db.Select(ctx, q, &have, s.db.Builder().Select("consult_id").From("case_collections").
		Where("user_id = ?", access.FromContext(ctx).UserID).Where(eqOrIn("consult_id", ids)))
	if err != nil {
		return apperr.Wrap(err, "load favourites")
	}
	for i := range rows {
		for _, h := range have {
			if rows[i].ID == h {
				rows[i].IsCollected = true
			}
		}
	}
	return nil
}
