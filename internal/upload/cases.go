package upload

import (
	"context"
	"slices"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// The slide domain owns the slides and slide_views tables. Other domains
// read and change them only through the functions below, in their own
// transaction (a *db.Tx) or on the database (a *db.DB).

// Usable counts how many of slideIDs (duplicates counted once) are slides
// of the hospital that finished uploading (those still being processed
// included) and that no case but consultID uses; all are when it equals
// their number.
func Usable(ctx context.Context, q db.Runner, hospitalID, consultID int64, slideIDs []int64) (ok bool, err error) {
	var n int
	err = db.Get(ctx, q, &n, q.Builder().Select("COUNT(*)").From("slides").Where(sq.Eq{"id": slideIDs}).
		Where("hospital_id = ? AND status IN (1, 2) AND (consult_id IS NULL OR consult_id = ?)", hospitalID, consultID))
	if err != nil {
		return false, apperr.Wrap(err, "check slides")
	}
	return n == len(slices.Compact(slices.Sorted(slices.Values(slideIDs)))), nil
}

// Attach makes slideIDs, in their order, the slides of a case: the case's
// other slides are released.
func Attach(ctx context.Context, tx *db.Tx, consultID int64, slideIDs []int64) error {
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("consult_id", nil).
		Where("consult_id = ?", consultID).Where(sq.NotEq{"id": slideIDs})); err != nil {
		return apperr.Wrap(err, "detach slides")
	}
	for i, sid := range slideIDs {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("consult_id", consultID).Set("sort", i).Where("id = ?", sid)); err != nil {
			return apperr.Wrap(err, "attach slide")
		}
	}
	return nil
}

// Release frees every slide of a case (the case is deleted).
func Release(ctx context.Context, tx *db.Tx, consultID int64) error {
	_, err := db.Exec(ctx, tx, tx.Builder().Update("slides").Set("consult_id", nil).Where("consult_id = ?", consultID))
	return apperr.Wrap(err, "release slides")
}

// CountInCase is the SQL expression counting a case's usable slides, for a
// column the case keeps.
func CountInCase(consultID int64) sq.Sqlizer {
	return sq.Expr("(SELECT COUNT(*) FROM slides WHERE consult_id = ? AND status IN (1, 2))", consultID)
}

// InCase reports whether slideID is a slide of the case (not removed).
func InCase(ctx context.Context, q db.Runner, consultID, slideID int64) (bool, error) {
	var n int
	err := db.Get(ctx, q, &n, q.Builder().Select("COUNT(*)").From("slides").
		Where("id = ? AND consult_id = ? AND status >= 0", slideID, consultID))
	return n > 0, apperr.Wrap(err, "load slide")
}

// RecordView stores that userID opened a slide at now: the first view, or
// one more.
func RecordView(ctx context.Context, q db.Runner, slideID, userID int64, now time.Time) error {
	_, err := db.Exec(ctx, q, q.Builder().Insert("slide_views").
		Columns("slide_id", "user_id", "first_viewed_at", "last_viewed_at", "view_count").Values(slideID, userID, now, now, 1).
		Suffix("ON CONFLICT (slide_id, user_id) DO UPDATE SET last_viewed_at = excluded.last_viewed_at, view_count = slide_views.view_count + 1"))
	return apperr.Wrap(err, "record view")
}

// Unviewed counts the case's viewable slides userID has not opened.
func Unviewed(ctx context.Context, q db.Runner, consultID, userID int64) (int, error) {
	n, err := notViewed(ctx, q, sq.Eq{"sl.viewable": 1}, consultID, userID)
	return n, apperr.Wrap(err, "not viewed")
}

// NotOpened counts the slides of a case (viewable or not) that userID has
// not opened yet.
func NotOpened(ctx context.Context, q db.Runner, consultID, userID int64) (int, error) {
	n, err := notViewed(ctx, q, sq.And{}, consultID, userID)
	return n, apperr.Wrap(err, "count unviewed slides")
}

func notViewed(ctx context.Context, q db.Runner, which sq.Sqlizer, consultID, userID int64) (int, error) {
	var n int
	err := db.Get(ctx, q, &n, q.Builder().Select("COUNT(*)").From("slides sl").
		Where("sl.consult_id = ? AND sl.status >= 0", consultID).Where(which).
		Where("NOT EXISTS (SELECT 1 FROM slide_views v WHERE v.slide_id = sl.id AND v.user_id = ?)", userID))
	return n, err
}

// SlideView is one user's views of one slide.
type SlideView struct {
	SlideID       int64     `db:"slide_id"`
	FirstViewedAt time.Time `db:"first_viewed_at"`
	LastViewedAt  time.Time `db:"last_viewed_at"`
	ViewCount     int       `db:"view_count"`
}

// LoadView returns userID's views of a slide.
func LoadView(ctx context.Context, q db.Runner, slideID, userID int64) (SlideView, error) {
	var v SlideView
	err := db.Get(ctx, q, &v, q.Builder().Select("slide_id", "first_viewed_at", "last_viewed_at", "view_count").
		From("slide_views").Where("slide_id = ? AND user_id = ?", slideID, userID))
	return v, apperr.Wrap(err, "load view")
}

// CaseSlide is a slide as its case lists it.
type CaseSlide struct {
	ID                int64     `db:"id"`
	Filename          string    `db:"filename"`
	Filesize          int64     `db:"filesize"`
	SHA256            string    `db:"sha256"`
	Status            int       `db:"status"`
	Format            string    `db:"format"`
	Viewable          int       `db:"viewable"`
	Error             string    `db:"error"`
	Ranse             string    `db:"ranse"`
	SpecimenName      string    `db:"specimen_name"`
	ParaffinBlockName string    `db:"paraffin_block_name"`
	Sort              int       `db:"sort"`
	CreatedAt         time.Time `db:"created_at"`
}

// OfCase lists the slides of a case (not removed) in their order.
func OfCase(ctx context.Context, q db.Runner, consultID int64) ([]CaseSlide, error) {
	out := []CaseSlide{}
	err := db.Select(ctx, q, &out, q.Builder().Select("id", "filename", "filesize", "sha256", "status", "format", "viewable",
		"error", "ranse", "specimen_name", "paraffin_block_name", "sort", "created_at").
		From("slides").Where("consult_id = ? AND status >= 0", consultID).OrderBy("sort", "id"))
	return out, apperr.Wrap(err, "load slides")
}
