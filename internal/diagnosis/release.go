package diagnosis

import (
	"context"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// The changes of a signed report that the publication flow asks for, in
// its transaction: the diagnoses are this domain's table.

// ReleaseNow releases, in tx, the case's report still in its hesitation
// period at now.
func (s *Service) ReleaseNow(ctx context.Context, tx *db.Tx, id int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").Set("release_at", now).Set("updated_at", now).
		Where("consult_id = ? AND type = ? AND status = ? AND release_at > ?", id, TypeNormal, Published, now))
	return apperr.Wrap(err, "release report")
}

// Unsign makes, in tx, the case's report still in its hesitation period a
// draft again: no signature, no report number, no verification code.
func (s *Service) Unsign(ctx context.Context, tx *db.Tx, id int64, now time.Time) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
		"status": Draft, "published_at": nil, "release_at": nil, "report_no": "", "verify_code": "", "updated_at": now,
	}).Where("consult_id = ? AND type = ? AND status = ? AND release_at > ?", id, TypeNormal, Published, now))
	return apperr.Wrap(err, "unsign report")
}

// SetFirstResult records, in tx, the administrator's verdict (by) on the
// case's first published report; a case without one is refused.
func (s *Service) SetFirstResult(ctx context.Context, tx *db.Tx, id int64, result, reason string, by int64, now time.Time) error {
	var first int64
	if err := db.Get(ctx, tx, &first, tx.Builder().Select("COALESCE(MIN(id), 0)").From("diagnoses").
		Where("consult_id = ? AND type = ? AND status = ?", id, TypeNormal, Published)); err != nil {
		return apperr.Wrap(err, "first report")
	}
	if first == 0 {
		return refuse("diagnosis.no_report")
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(map[string]any{
		"first_result": result, "first_result_reason": reason, "first_result_by": by, "first_result_at": now,
	}).Where("id = ?", first))
	return apperr.Wrap(err, "first result")
}
