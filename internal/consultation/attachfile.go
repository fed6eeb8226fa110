package consultation

import (
	"context"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// AttachFile attaches a stored file to a case as an "other" attachment, in
// the caller's transaction (a gallery image saved as a new one).
func (s *Service) AttachFile(ctx context.Context, tx *db.Tx, consultID, fileID int64) error {
	var sort int
	if err := db.Get(ctx, tx, &sort, tx.Builder().Select("COALESCE(MAX(sort), 0) + 1").From("attachments").Where("consult_id = ?", consultID)); err != nil {
		return apperr.Wrap(err, "attachment sort")
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Insert("attachments").Columns("consult_id", "file_id", "type", "sort", "created_at").
		Values(consultID, fileID, AttachOther, sort, s.now()))
	return apperr.Wrap(err, "attach file")
}

// DetachFile removes a file from a case's attachments, in the caller's
// transaction (a gallery image deleted).
func (s *Service) DetachFile(ctx context.Context, tx *db.Tx, consultID, fileID int64) error {
	res, err := db.Exec(ctx, tx, tx.Builder().Update("attachments").Set("status", -1).
		Where("consult_id = ? AND file_id = ? AND status >= 0", consultID, fileID))
	if err != nil {
		return apperr.Wrap(err, "detach file")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	return nil
}
