package borrow

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

const loanColumns = `b.id, b.borrow_no, b.consult_id, c.consult_no, c.patient_name, b.hospital_id, h.name AS hospital_name,
b.center_id, ce.name AS center_name, b.type, b.borrower, b.borrower_phone, b.purpose, b.slides, b.blocks, b.items, b.due_date,
b.deposit, b.payee, b.damaged, b.compensation, b.review_note, b.return_note, b.status, rq.name AS requested_by_name,
rv.name AS reviewed_by_name, b.reviewed_at, ld.name AS lent_by_name, b.lent_at, rt.name AS returned_by_name, b.returned_at,
b.version, b.created_at, b.updated_at`

const loanFrom = `borrows b JOIN consultations c ON c.id = b.consult_id JOIN hospitals h ON h.id = b.hospital_id
JOIN centers ce ON ce.id = b.center_id JOIN users rq ON rq.id = b.requested_by LEFT JOIN users rv ON rv.id = b.reviewed_by
LEFT JOIN users ld ON ld.id = b.lent_by LEFT JOIN users rt ON rt.id = b.returned_by`

// scope is the condition on a row's hospital and center columns for what
// the caller sees: a site its hospitals', a center administrator their
// centers', an administrator all.
func scope(p *access.Principal, hospital, center string) sq.Sqlizer {
	if p == nil {
		return sq.Expr("1 = 0")
	}
	if p.IsAdmin() {
		return sq.Expr("1 = 1")
	}
	or := sq.Or{}
	if p.Has(access.Site) && len(p.HospitalIDs) > 0 {
		or = append(or, sq.Eq{hospital: p.HospitalIDs})
	}
	if p.Has(access.CenterAdmin) && len(p.CenterIDs) > 0 {
		or = append(or, sq.Eq{center: p.CenterIDs})
	}
	if len(or) == 0 {
		return sq.Expr("1 = 0")
	}
	return or
}

// today is the center's calendar day now.
func (s *Service) today() string { return s.clock.Local(s.clock.Now()).Format(dayLayout) }

func (s *Service) finish(ctx context.Context, l *Loan, today string) {
	l.Overdue = l.Status == StatusBorrowing && l.DueDate < today
	l.Actions = ActionsOf(access.FromContext(ctx), l)
}

func (s *Service) load(ctx context.Context, q db.Querier, id int64) (*Loan, error) {
	var l Loan
	err := db.Get(ctx, q, &l, s.db.Builder().Select(loanColumns).From(loanFrom).
		Where("b.id = ?", id).Where(scope(access.FromContext(ctx), "b.hospital_id", "b.center_id")))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load loan")
	}
	s.finish(ctx, &l, s.today())
	return &l, nil
}

// Loan returns one loan the caller sees, with its actions and the changes
// of its due date.
func (s *Service) Loan(ctx context.Context, id int64) (*Loan, error) {
	l, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	l.DueChanges = []DueChange{}
	err = db.Select(ctx, s.db, &l.DueChanges, s.db.Builder().Select("d.from_date", "d.to_date", "d.reason", "u.name AS changed_by_name", "d.changed_at").
		From("borrow_due_changes d").Join("users u ON u.id = d.changed_by").Where("d.borrow_id = ?", id).OrderBy("d.id"))
	return l, apperr.Wrap(err, "load due changes")
}

var loanList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":            {Expr: "b.id", Type: listquery.Int, Sort: true, Filter: true},
		"borrow_no":     {Expr: "b.borrow_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"consult_no":    {Expr: "c.consult_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name":  {Expr: "c.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"borrower":      {Expr: "b.borrower", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"type":          {Expr: "b.type", Type: listquery.String, Sort: true, Filter: true},
		"status":        {Expr: "b.status", Type: listquery.String, Sort: true, Filter: true},
		"hospital_id":   {Expr: "b.hospital_id", Type: listquery.Int, Filter: true},
		"center_id":     {Expr: "b.center_id", Type: listquery.Int, Filter: true},
		"consult_id":    {Expr: "b.consult_id", Type: listquery.Int, Filter: true},
		"hospital_name": {Expr: "h.name", Type: listquery.String, Sort: true},
		"due_date":      {Expr: "b.due_date", Type: listquery.String, Sort: true, Filter: true},
		"lent_at":       {Expr: "b.lent_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"returned_at":   {Expr: "b.returned_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"created_at":    {Expr: "b.created_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"b.created_at DESC"},
	TieBreak:    "b.id DESC",
	ExtraParams: []string{"tab"},
}

// loanTabs are the tabs of /borrow/manage's loans on day today: one per
// status, and the overdue loans.
func loanTabs(today string) map[string]sq.Sqlizer {
	t := map[string]sq.Sqlizer{"all": nil, "overdue": sq.Expr("b.status = ? AND b.due_date < ?", StatusBorrowing, today)}
	for _, st := range Statuses {
		t[string(st)] = sq.Eq{"b.status": st}
	}
	return t
}

// Loans lists the loans the caller sees (tab: see loanTabs).
func (s *Service) Loans(ctx context.Context, req listquery.Request) ([]Loan, listquery.Pagination, error) {
	q, err := loanList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	today := s.today()
	tab, err := q.Tab(loanTabs(today))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	sc := scope(access.FromContext(ctx), "b.hospital_id", "b.center_id")
	base := s.db.Builder().Select(loanColumns).From(loanFrom).Where(sc).Where(tab)
	count := s.db.Builder().Select("COUNT(*)").From("borrows b JOIN consultations c ON c.id = b.consult_id JOIN hospitals h ON h.id = b.hospital_id").Where(sc).Where(tab)
	rows, pg, err := listquery.Run[Loan](ctx, s.db, q, base, count)
	for i := range rows {
		s.finish(ctx, &rows[i], today)
	}
	return rows, pg, err
}

// CountLoans returns the tab counts of the caller's loans.
func (s *Service) CountLoans(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := loanList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From("borrows b JOIN consultations c ON c.id = b.consult_id JOIN hospitals h ON h.id = b.hospital_id").
		Where(scope(access.FromContext(ctx), "b.hospital_id", "b.center_id"))
	return listquery.Counts(ctx, s.db, q, base, loanTabs(s.today()))
}

// caseRef is what a loan or an archive record needs of its case.
type caseRef struct {
	ID         int64  `db:"id"`
	ConsultNo  string `db:"consult_no"`
	HospitalID int64  `db:"hospital_id"`
	CenterID   *int64 `db:"center_id"`
}

// lendable loads a case whose material the caller may ask to borrow: a case
// of the caller's hospital (or center) that was sent to a center. Anything
// else is refused as if it did not exist.
func (s *Service) lendable(ctx context.Context, q db.Querier, id int64) (*caseRef, error) {
	var c caseRef
	err := db.Get(ctx, q, &c, s.db.Builder().Select("id", "consult_no", "hospital_id", "center_id").From("consultations").
		Where("id = ? AND deleted_at IS NULL AND status <> 0 AND center_id IS NOT NULL", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, apperr.Wrap(err, "load case")
	}
	if len(sides(access.FromContext(ctx), c.HospitalID, *c.CenterID)) == 0 {
		return nil, nil
	}
	return &c, nil
}

// Request records a request to borrow a case's slides and blocks (checking).
func (s *Service) Request(ctx context.Context, in BorrowRequestInput) (*Loan, error) {
	var v apperr.Validation
	in.Borrower, in.Purpose = strings.TrimSpace(in.Borrower), strings.TrimSpace(in.Purpose)
	if in.ConsultID <= 0 {
		v.Add("consult_id", "field.required")
	}
	if in.Type == "" {
		v.Add("type", "field.required")
	} else if !slices.Contains(Types, Type(in.Type)) {
		v.Add("type", "field.invalid")
	}
	if in.Borrower == "" {
		v.Add("borrower", "field.required")
	}
	if in.Purpose == "" {
		v.Add("purpose", "field.required")
	}
	if in.Slides+in.Blocks <= 0 {
		v.Add("slides", "borrow.nothing_to_lend")
	}
	due := s.checkDue(&v, in.DueDate)
	if err := v.Err(); err != nil {
		return nil, err
	}
	p, now := access.FromContext(ctx), s.clock.Now()
	var out *Loan
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		c, err := s.lendable(ctx, tx, in.ConsultID)
		if err != nil {
			return err
		}
		if c == nil {
			return apperr.New(apperr.Invalid, "error.validation").Field("consult_id", "borrow.case_not_found")
		}
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("borrows").SetMap(map[string]any{
			"consult_id": c.ID, "hospital_id": c.HospitalID, "center_id": *c.CenterID, "type": in.Type, "borrower": in.Borrower,
			"borrower_phone": strings.TrimSpace(in.BorrowerPhone), "purpose": in.Purpose, "slides": in.Slides, "blocks": in.Blocks,
			"items": strings.TrimSpace(in.Items), "due_date": due, "status": StatusChecking, "requested_by": p.UserID,
			"version": 1, "created_at": now, "updated_at": now,
		}))
		if err != nil {
			return apperr.Wrap(err, "insert loan")
		}
		no := fmt.Sprintf("JY%s%05d", s.clock.Local(now).Format("20060102"), id)
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("borrows").Set("borrow_no", no).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "number loan")
		}
		if out, err = s.load(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "borrow.request", ObjectType: "borrow", ObjectID: id, CaseID: c.ID, After: out})
	})
	return out, err
}

// checkDue reads a due date: a day (YYYY-MM-DD) of the center's calendar,
// today or later.
func (s *Service) checkDue(v *apperr.Validation, raw string) string {
	due := strings.TrimSpace(raw)
	if due == "" {
		v.Add("due_date", "field.required")
	} else if d, err := time.ParseInLocation(dayLayout, due, s.clock.Zone()); err != nil || d.Format(dayLayout) != due {
		v.Add("due_date", "field.invalid")
	} else if due < s.today() {
		v.Add("due_date", "borrow.due_past")
	}
	return due
}

// move makes act on loan id in one transaction: the caller must see it and
// the state machine must allow act; change returns the columns to set.
func (s *Service) move(ctx context.Context, id int64, act Action, change func(l *Loan) map[string]any) (*Loan, error) {
	return s.moveThen(ctx, id, act, change, nil)
}

// moveThen is move with then run in the same transaction after the loan
// changed (before it is reloaded and audited).
func (s *Service) moveThen(ctx context.Context, id int64, act Action, change func(l *Loan) map[string]any, then func(tx *db.Tx, l *Loan) error) (*Loan, error) {
	var out *Loan
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		l, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		if !Allowed(access.FromContext(ctx), l, act) {
			if act == ActReturn && l.Status == StatusReturned {
				return apperr.New(apperr.Conflict, "borrow.already_returned")
			}
			return apperr.New(apperr.Conflict, "borrow.not_allowed").
				With("action", apperr.MsgKey("borrow.action."+string(act))).With("status", apperr.MsgKey("borrow.status."+string(l.Status)))
		}
		now := s.clock.Now()
		set := change(l)
		set["status"], set["version"], set["updated_at"] = next(l, act), sq.Expr("version + 1"), now
		res, err := db.Exec(ctx, tx, tx.Builder().Update("borrows").SetMap(set).Where("id = ? AND version = ?", id, l.Version))
		if err != nil {
			return apperr.Wrap(err, "update loan")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "borrow.version_conflict")
		}
		if then != nil {
			if err := then(tx, l); err != nil {
				return err
			}
		}
		if out, err = s.load(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "borrow." + string(act), ObjectType: "borrow", ObjectID: id, CaseID: l.ConsultID, Before: l, After: out})
	})
	return out, err
}

// Approve passes a request (checking → passed).
func (s *Service) Approve(ctx context.Context, id int64) (*Loan, error) {
	me := access.FromContext(ctx).UserID
	return s.move(ctx, id, ActApprove, func(*Loan) map[string]any {
		return map[string]any{"reviewed_by": me, "reviewed_at": s.clock.Now(), "review_note": ""}
	})
}

// Reject refuses a request with a reason (checking → not passed).
func (s *Service) Reject(ctx context.Context, id int64, in BorrowReasonInput) (*Loan, error) {
	r := strings.TrimSpace(in.Reason)
	if r == "" {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("reason", "field.required")
	}
	me := access.FromContext(ctx).UserID
	return s.move(ctx, id, ActReject, func(*Loan) map[string]any {
		return map[string]any{"reviewed_by": me, "reviewed_at": s.clock.Now(), "review_note": r}
	})
}

// Lend hands the material out (passed → borrowing). A due date that passed
// while the request waited is refused: the center agrees a new one first.
func (s *Service) Lend(ctx context.Context, id int64, in BorrowLendInput) (*Loan, error) {
	if in.Deposit < 0 {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("deposit", "field.invalid")
	}
	me := access.FromContext(ctx).UserID
	l, err := s.load(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if Allowed(access.FromContext(ctx), l, ActLend) && l.DueDate < s.today() {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("due_date", "borrow.due_past")
	}
	return s.move(ctx, id, ActLend, func(*Loan) map[string]any {
		return map[string]any{"lent_by": me, "lent_at": s.clock.Now(), "deposit": in.Deposit, "payee": strings.TrimSpace(in.Payee)}
	})
}

// Return takes the material back (borrowing → returned), with any damage
// and its compensation. A loan returns once.
func (s *Service) Return(ctx context.Context, id int64, in BorrowReturnInput) (*Loan, error) {
	if in.Compensation < 0 || (!in.Damaged && in.Compensation > 0) {
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("compensation", "borrow.compensation_without_damage")
	}
	me := access.FromContext(ctx).UserID
	return s.move(ctx, id, ActReturn, func(*Loan) map[string]any {
		return map[string]any{"returned_by": me, "returned_at": s.clock.Now(), "damaged": b2i(in.Damaged),
			"compensation": in.Compensation, "return_note": strings.TrimSpace(in.Note)}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Extend changes the due date of a loan that is checking, passed or lent
// out (the center's; spec 2 §3 Borrow): a day today or later, other than
// the current one. The change is kept with its reason, who and when, and
// audited; the overdue highlight follows the new date.
func (s *Service) Extend(ctx context.Context, id int64, in BorrowExtendInput) (*Loan, error) {
	var v apperr.Validation
	due := s.checkDue(&v, in.DueDate)
	reason := strings.TrimSpace(in.Reason)
	if err := v.Err(); err != nil {
		return nil, err
	}
	me, now := access.FromContext(ctx).UserID, s.clock.Now()
	return s.moveThen(ctx, id, ActExtend, func(*Loan) map[string]any {
		return map[string]any{"due_date": due}
	}, func(tx *db.Tx, l *Loan) error {
		if l.DueDate == due {
			return apperr.New(apperr.Invalid, "error.validation").Field("due_date", "borrow.due_unchanged")
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("borrow_due_changes").SetMap(map[string]any{
			"borrow_id": id, "from_date": l.DueDate, "to_date": due, "reason": reason, "changed_by": me, "changed_at": now,
		}))
		return apperr.Wrap(err, "record due change")
	})
}
