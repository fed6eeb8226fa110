package share

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
	"telepath/internal/report"
)

// Service makes, lists, cancels and opens shares.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
	pdf   *report.Stamper // watermarks PDF attachments
}

// New creates the service.
func New(d *db.DB, deps Deps) *Service {
	return &Service{db: d, deps: deps, pdf: report.NewStamper(0)}
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// UsePDFStamper sets what watermarks PDF attachments (its time limit).
func (s *Service) UsePDFStamper(p *report.Stamper) { s.pdf = p }

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

const shareColumns = "s.id, s.consult_id, s.case_no, s.patient_name, s.user_id, s.owner_name, s.secret, s.neutral_no, " +
	"s.with_report, s.with_attachments, s.with_clinical, s.with_annotations, s.deidentify, s.expires_at, s.cancelled_at, s.visits, s.last_visit_at, " +
	"s.created_at, s.token_hash, s.code_hash"

// shareRow is a share as stored.
type shareRow struct {
	Share
	TokenHash string `db:"token_hash"`
	CodeHash  string `db:"code_hash"`
}

func (s *Service) load(ctx context.Context, q db.Runner, where sq.Sqlizer) (*shareRow, error) {
	var r shareRow
	err := db.Get(ctx, q, &r, q.Builder().Select(shareColumns).From("shares s").Where(where))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load share")
	}
	r.Phase = phaseAt(&r.Share, s.now())
	return &r, nil
}

// Create shares a case the caller may see; the case's life cycle decides
// who may share it and when (consultation.ActShare). The link's token and
// the code are returned once.
func (s *Service) Create(ctx context.Context, in ShareInput) (*ShareCreated, error) {
	now := s.now()
	c := &ShareCreated{Token: randomToken(32)}
	var exp *time.Time
	switch in.ExpiryDays {
	case 0:
	case 1, 7, 30:
		t := now.Add(time.Duration(in.ExpiryDays) * 24 * time.Hour)
		exp = &t
	default:
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("expiry_days", "share.bad_expiry")
	}
	th := hashToken(c.Token)
	ch := ""
	if in.Secret {
		c.Code = randomCode()
		ch = hashCode(th, c.Code)
	}
	p := access.FromContext(ctx)
	var id int64
	err := s.deps.Cases.Apply(ctx, in.ConsultID, consultation.ActShare, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		q := tx.Rebind(`INSERT INTO shares (consult_id, user_id, token_hash, secret, code_hash, neutral_no, case_no, patient_name, owner_name,
			with_report, with_attachments, with_clinical, with_annotations, deidentify, expires_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		if err := tx.GetContext(ctx, &id, q, r.ID, p.UserID, th, b2i(in.Secret), ch, neutralNumber(), r.ConsultNo, r.PatientName, p.Name,
			b2i(in.WithReport), b2i(in.WithAttachments), b2i(in.WithClinical), b2i(in.WithAnnotations), b2i(in.Deidentify), exp, now); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "insert share")
		}
		created, err := s.load(ctx, tx, sq.Eq{"s.id": id})
		if err != nil {
			return consultation.Change{}, err
		}
		c.Share = created.Share
		return consultation.Change{}, audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "share.create", ObjectType: "share", ObjectID: id, CaseID: r.ID, After: c.Share})
	})
	if err != nil {
		return nil, err
	}
	c.Actions = actionsOf(p, &c.Share)
	return c, nil
}

// Cancel ends a share at once: its link, its visits' tickets and the slide
// URLs issued to it stop working. Only its owner or an administrator may.
func (s *Service) Cancel(ctx context.Context, id int64) (*Share, error) {
	p := access.FromContext(ctx)
	var out *Share
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		r, err := s.load(ctx, tx, sq.Eq{"s.id": id})
		if err != nil {
			return err
		}
		if r.UserID != p.UserID && !p.IsAdmin() {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		if !allowed(p, &r.Share, ActCancel) {
			return apperr.New(apperr.Conflict, "share.not_allowed")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("shares").Set("cancelled_at", s.now()).Where("id = ? AND cancelled_at IS NULL", id)); err != nil {
			return apperr.Wrap(err, "cancel share")
		}
		after, err := s.load(ctx, tx, sq.Eq{"s.id": id})
		if err != nil {
			return err
		}
		out = &after.Share
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "share.cancel", ObjectType: "share", ObjectID: id, CaseID: r.ConsultID, Before: r.Share, After: after.Share})
	})
	if err != nil {
		return nil, err
	}
	s.deps.Slides.ForgetShare(id)
	out.Actions = actionsOf(p, out)
	return out, nil
}

var shareList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":            {Expr: "s.id", Type: listquery.Int, Sort: true, Filter: true},
		"consult_id":    {Expr: "s.consult_id", Type: listquery.Int, Filter: true},
		"consult_no":    {Expr: "s.case_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"patient_name":  {Expr: "s.patient_name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"neutral_no":    {Expr: "s.neutral_no", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"secret":        {Expr: "s.secret", Type: listquery.Int, Filter: true},
		"deidentify":    {Expr: "s.deidentify", Type: listquery.Int, Filter: true},
		"visits":        {Expr: "s.visits", Type: listquery.Int, Sort: true, Filter: true},
		"last_visit_at": {Expr: "s.last_visit_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"expires_at":    {Expr: "s.expires_at", Type: listquery.Time, Sort: true, Filter: true, Nullable: true},
		"created_at":    {Expr: "s.created_at", Type: listquery.Time, Sort: true, Filter: true},
	},
	DefaultSort: []string{"s.created_at DESC"},
	TieBreak:    "s.id DESC",
	ExtraParams: []string{"tab"},
}

// tabs are the list's tabs, one per phase, at now.
func tabs(now time.Time) map[string]sq.Sqlizer {
	return map[string]sq.Sqlizer{
		"all":                  nil,
		string(PhaseSharing):   sq.Expr("s.cancelled_at IS NULL AND s.expires_at > ?", now),
		string(PhasePermanent): sq.Expr("s.cancelled_at IS NULL AND s.expires_at IS NULL"),
		string(PhaseExpired):   sq.Expr("s.cancelled_at IS NULL AND s.expires_at <= ?", now),
		string(PhaseCancelled): sq.Expr("s.cancelled_at IS NOT NULL"),
	}
}

// mine limits the list to the caller's shares (an administrator sees all).
func mine(p *access.Principal) sq.Sqlizer {
	if p.IsAdmin() {
		return sq.Expr("1=1")
	}
	return sq.Eq{"s.user_id": p.UserID}
}

// List lists the caller's shares with their phase, visits and last visit.
func (s *Service) List(ctx context.Context, req listquery.Request) ([]Share, listquery.Pagination, error) {
	q, err := shareList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	now := s.now()
	tab, err := q.Tab(tabs(now))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	p := access.FromContext(ctx)
	base := s.db.Builder().Select(shareColumns).From("shares s").Where(mine(p)).Where(tab)
	count := s.db.Builder().Select("COUNT(*)").From("shares s").Where(mine(p)).Where(tab)
	rows, pg, err := listquery.Run[shareRow](ctx, s.db, q, base, count)
	out := make([]Share, len(rows))
	for i := range rows {
		out[i] = rows[i].Share
		out[i].Phase = phaseAt(&out[i], now)
		out[i].Actions = actionsOf(p, &out[i])
	}
	return out, pg, err
}

// Count returns the tab counts of the caller's shares.
func (s *Service) Count(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := shareList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base := s.db.Builder().Select().From("shares s").Where(mine(access.FromContext(ctx)))
	return listquery.Counts(ctx, s.db, q, base, tabs(s.now()))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomToken is n random bytes, URL-safe.
func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// codeAlphabet leaves out look-alikes (0/O, 1/I/L).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// randomCode is a secret share's code: 6 characters, about 30 bits.
func randomCode() string {
	b := make([]byte, 6)
	rand.Read(b)
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b)
}

// neutralNumber names a shared case without its own numbers.
func neutralNumber() string {
	b := make([]byte, 4)
	rand.Read(b)
	return "SH-" + hex.EncodeToString(b)
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

func hashCode(tokenHash, code string) string {
	h := sha256.Sum256([]byte(tokenHash + "|" + code))
	return hex.EncodeToString(h[:])
}

func codeMatches(r *shareRow, code string) bool {
	return subtle.ConstantTimeCompare([]byte(hashCode(r.TokenHash, code)), []byte(r.CodeHash)) == 1
}
