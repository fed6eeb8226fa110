package borrow

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

// The archive lists the center's cases that were sent to it, each with its
// archive record if the material was received.
const archiveColumns = `c.id AS consult_id, c.consult_no, c.patient_name, c.hospital_id, h.name AS hospital_name, c.center_id,
c.slide_count, COALESCE(ar.archive_no, '') AS archive_no, COALESCE(ar.type, '') AS type, COALESCE(ar.source, '') AS source,
COALESCE(ar.room, '') AS room, COALESCE(ar.box_no, '') AS box_no, COALESCE(ar.locker_no, '') AS locker_no,
COALESCE(ar.note, '') AS note, u.name AS archiver_name, ar.received_at, ar.archived_at, ar.stored_at,
COALESCE(ar.version, 0) AS version, ` + archiveStatusExpr + ` AS status,
CASE WHEN EXISTS (SELECT 1 FROM borrows bl WHERE bl.consult_id = c.id AND bl.status = 'borrowing') THEN 1 ELSE 0 END AS on_loan`

const archiveStatusExpr = `CASE WHEN ar.consult_id IS NULL THEN 'to_receive' ELSE ar.status END`

const archiveFrom = `consultations c JOIN hospitals h ON h.id = c.hospital_id LEFT JOIN archives ar ON ar.consult_id = c.id
LEFT JOIN users u ON u.id = ar.archiver_id`

// archiveScope: cases sent to a center the caller keeps the archive of.
func archiveScope(p *access.Principal) sq.Sqlizer {
	if p == nil || (!p.IsAdmin() && (!p.Has(access.CenterAdmin) || len(p.CenterIDs) == 0)) {
		return sq.Expr("1 = 0")
	}
	base := sq.And{sq.Expr("c.deleted_at IS NULL AND c.status <> 0 AND c.center_id IS NOT NULL")}
	if !p.IsAdmin() {
		base = append(base, sq.Eq{"c.center_id": p.CenterIDs})
	}
	return base
}

func (s *Service) loadArchive(ctx context.Context, q db.Querier, consultID int64) (*Archive, error) {
	p := access.FromContext(ctx)
	var a Archive
	err := db.Get(ctx, q, &a, s.db.Builder().Select(archiveColumns).From(archiveFrom).Where("c.id = ?", consultID).Where(archiveScope(p)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load archive")
	}
	a.Actions = ArchiveActionsOf(p, &a)
	return &a, nil
}

// ArchiveOf returns a case's archive record as the center keeps it.
func (s *Service) ArchiveOf(ctx context.Context, consultID int64) (*Archive, error) {
	return s.loadArchive(ctx, s.db, consultID)
}

var archiveList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"consult_id":    {Expr: "c.id", Type: listquery.Int, Sort: true, Filter: true},
		"consult_no":    {Expr: "c.consult_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name":  {Expr: "c.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"hospital_id":   {Expr: "c.hospital_id", Type: listquery.Int, Filter: true},
		"hospital_name": {Expr: "h.name", Type: listquery.String, Sort: true},
		"archive_no":    {Expr: "ar.archive_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"room":          {Expr: "ar.room", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"box_no":        {Expr: "ar.box_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"locker_no":     {Expr: "ar.locker_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"status":        {Expr: archiveStatusExpr, Type: listquery.String, Filter: true},
		"received_at":   {Expr: "ar.received_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"stored_at":     {Expr: "ar.stored_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"submitted_at":  {Expr: "c.submitted_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
	},
	DefaultSort: []string{"c.id DESC"},
	TieBreak:    "c.id DESC",
	ExtraParams: []string{"tab"},
}

var archiveTabs = map[string]sq.Sqlizer{
	"all":          nil,
	"to_receive":   sq.Expr("ar.consult_id IS NULL"),
	"not_archived": sq.Expr("ar.status = 'not_archived'"),
	"archived":     sq.Expr("ar.status = 'archived'"),
}

// Archives lists the center's cases with their archive state (tab: to_receive, not_archived, archived).
func (s *Service) Archives(ctx context.Context, req listquery.Request) ([]Archive, listquery.Pagination, error) {
	q, err := archiveList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	tab, err := q.Tab(archiveTabs)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	p := access.FromContext(ctx)
	sc := archiveScope(p)
	base := s.db.Builder().Select(archiveColumns).From(archiveFrom).Where(sc).Where(tab)
	count := s.db.Builder().Select("COUNT(*)").From(archiveFrom).Where(sc).Where(tab)
	rows, pg, err := listquery.Run[Archive](ctx, s.db, q, base, count)
	for i := range rows {
		rows[i].Actions = ArchiveActionsOf(p, &rows[i])
	}
	return rows, pg, err
}

// CountArchives returns the tab counts of the archive.
func (s *Service) CountArchives(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := archiveList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From(archiveFrom).Where(archiveScope(access.FromContext(ctx)))
	return listquery.Counts(ctx, s.db, q, base, archiveTabs)
}

// archiveMoveTx makes act on the case's archive record in one transaction;
// write inserts or updates the record.
func (s *Service) archiveMoveTx(ctx context.Context, consultID int64, act Action, write func(tx *db.Tx, a *Archive, t ArchiveTransition) error) (*Archive, error) {
	var out *Archive
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		a, err := s.loadArchive(ctx, tx, consultID)
		if err != nil {
			return err
		}
		t, ok := archiveMove(access.FromContext(ctx), a, act)
		if !ok {
			return apperr.New(apperr.Conflict, "borrow.not_allowed").
				With("action", apperr.MsgKey("borrow.action."+string(act))).With("status", apperr.MsgKey("borrow.archive."+string(a.Status)))
		}
		if err := write(tx, a, t); err != nil {
			return err
		}
		if out, err = s.loadArchive(ctx, tx, consultID); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "archive." + string(act), ObjectType: "archive", ObjectID: consultID, CaseID: consultID, Before: a, After: out})
	})
	return out, err
}

// update writes set on the record at the version read.
func (s *Service) update(ctx context.Context, tx *db.Tx, a *Archive, set map[string]any) error {
	set["version"], set["updated_at"] = sq.Expr("version + 1"), s.clock.Now()
	res, err := db.Exec(ctx, tx, tx.Builder().Update("archives").SetMap(set).Where("consult_id = ? AND version = ?", a.ConsultID, a.Version))
	if err != nil {
		return apperr.Wrap(err, "update archive")
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.New(apperr.Conflict, "borrow.version_conflict")
	}
	return nil
}

// Receive records that the center received a case's material (not archived yet).
func (s *Service) Receive(ctx context.Context, consultID int64, in ArchiveReceiveInput) (*Archive, error) {
	p := access.FromContext(ctx)
	return s.archiveMoveTx(ctx, consultID, ActReceive, func(tx *db.Tx, a *Archive, t ArchiveTransition) error {
		now := s.clock.Now()
		src := strings.TrimSpace(in.Source)
		if src == "" {
			src = a.HospitalName
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("archives").SetMap(map[string]any{
			"consult_id": a.ConsultID, "hospital_id": a.HospitalID, "center_id": a.CenterID, "archive_no": a.ConsultNo,
			"source": src, "status": t.To, "archiver_id": p.UserID, "received_at": now, "version": 1, "created_at": now, "updated_at": now,
		}))
		return apperr.Wrap(err, "insert archive")
	})
}

// Store puts a case's material in storage (first time: store; after an
// undo: re-archive) at a room, box and locker.
func (s *Service) Store(ctx context.Context, consultID int64, in ArchiveStoreInput) (*Archive, error) {
	return s.store(ctx, consultID, ActStore, in)
}

// Rearchive puts material taken out back into storage.
func (s *Service) Rearchive(ctx context.Context, consultID int64, in ArchiveStoreInput) (*Archive, error) {
	return s.store(ctx, consultID, ActRearchive, in)
}

func (s *Service) store(ctx context.Context, consultID int64, act Action, in ArchiveStoreInput) (*Archive, error) {
	var v apperr.Validation
	in.Room, in.BoxNo, in.LockerNo = strings.TrimSpace(in.Room), strings.TrimSpace(in.BoxNo), strings.TrimSpace(in.LockerNo)
	if in.Room == "" {
		v.Add("room", "field.required")
	}
	if in.BoxNo == "" && in.LockerNo == "" {
		v.Add("box_no", "borrow.location_required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p := access.FromContext(ctx)
	return s.archiveMoveTx(ctx, consultID, act, func(tx *db.Tx, a *Archive, t ArchiveTransition) error {
		now := s.clock.Now()
		set := map[string]any{"status": t.To, "room": in.Room, "box_no": in.BoxNo, "locker_no": in.LockerNo,
			"archiver_id": p.UserID, "stored_at": now, "note": ""}
		if in.Type != "" {
			set["type"] = in.Type
		} else if a.Type == "" {
			set["type"] = "slide"
		}
		if no := strings.TrimSpace(in.ArchiveNo); no != "" {
			set["archive_no"] = no
		}
		if a.ArchivedAt == nil {
			set["archived_at"] = now
		}
		return s.update(ctx, tx, a, set)
	})
}

// Undo takes a case's material out of storage (undo archive), with a reason.
func (s *Service) Undo(ctx context.Context, consultID int64, in BorrowReasonInput) (*Archive, error) {
	r := strings.TrimSpace(in.Reason)
	if r == "" {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("reason", "field.required")
	}
	return s.archiveMoveTx(ctx, consultID, ActUndo, func(tx *db.Tx, a *Archive, t ArchiveTransition) error {
		return s.update(ctx, tx, a, map[string]any{"status": t.To, "note": r})
	})
}
