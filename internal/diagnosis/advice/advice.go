package advice

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Advice kinds: special exams (spec 2 §3 Special exams) and technical
// re-work (Re-work reasons).
const (
	AdviceSpecial   = "special"
	AdviceTechnical = "technical"
)

// Advice statuses.
const (
	AdvicePending     = "pending"
	AdviceExecuted    = "executed"
	AdviceTransferred = "transferred"
	AdviceDone        = "done"
)

var adviceItems = map[string][]string{
	AdviceSpecial: {"immunohistochemisty", "special_stain", "molecular_pathology"},
	AdviceTechnical: {"re_sample", "re_cut", "deep_cut", "thin_cut", "re_embeded", "consult_he_cut", "glue_cut", "consult_cut",
		"continue_cut", "read_cut", "cell_block", "other"},
}

// AdviceItem is one ordered exam or re-work.
type AdviceItem struct {
	Item    string `json:"item,omitempty" maxLength:"40" doc:"special: immunohistochemisty, special_stain, molecular_pathology; technical: re_sample, re_cut, deep_cut, thin_cut, re_embeded, consult_he_cut, glue_cut, consult_cut, continue_cut, read_cut, cell_block, other"`
	Markers string `json:"markers,omitempty" maxLength:"500" doc:"Antibodies, stains or genes (required for special exams)"`
	Block   string `json:"block,omitempty" maxLength:"50" doc:"Paraffin block of the case"`
	Remark  string `json:"remark,omitempty" maxLength:"500"`
}

// AdviceInput is what the expert orders.
type AdviceInput struct {
	Kind  string       `json:"kind,omitempty" enum:"special,technical"`
	Items []AdviceItem `json:"items,omitempty" maxItems:"20"`
}

// Advice is one advice with its state.
type Advice struct {
	ID              int64         `json:"id" db:"id"`
	ConsultID       int64         `json:"consult_id" db:"consult_id"`
	ConsultNo       string        `json:"consult_no" db:"consult_no"`
	PatientName     string        `json:"patient_name" db:"patient_name"`
	PathologyNumber string        `json:"pathology_number" db:"pathology_number"`
	HospitalName    string        `json:"hospital_name" db:"hospital_name"`
	Kind            string        `json:"kind" db:"kind" enum:"special,technical"`
	Item            string        `json:"item" db:"item"`
	Markers         string        `json:"markers" db:"markers"`
	Block           string        `json:"block" db:"block"`
	Remark          string        `json:"remark" db:"remark"`
	Status          string        `json:"status" db:"status" enum:"pending,executed,transferred,done"`
	CreatedBy       int64         `json:"created_by" db:"created_by"`
	CreatedByName   string        `json:"created_by_name" db:"created_by_name"`
	CreatedAt       time.Time     `json:"created_at" db:"created_at"`
	ThirdID         *int64        `json:"third_id" db:"third_id"`
	ThirdName       *string       `json:"third_name" db:"third_name"`
	TransferredAt   *time.Time    `json:"transferred_at" db:"transferred_at"`
	Result          string        `json:"result" db:"result"`
	DoneByName      *string       `json:"done_by_name" db:"done_by_name"`
	DoneAt          *time.Time    `json:"done_at" db:"done_at"`
	MarkerResults   MarkerResults `json:"marker_results" db:"marker_results" doc:"Result of each marker, recorded by the expert (special exams)"`
	Interpretation  string        `json:"interpretation" db:"interpretation"`
	ResultsByName   *string       `json:"results_by_name" db:"results_by_name"`
	ResultsAt       *time.Time    `json:"results_at" db:"results_at"`
}

func (in *AdviceInput) validate(blocks []string) error {
	var v apperr.Validation
	allowed, ok := adviceItems[in.Kind]
	if !ok {
		v.Add("kind", "advice.item_unknown")
	}
	if len(in.Items) == 0 || len(in.Items) > 20 {
		v.Add("items", "advice.items_required")
	}
	for i := range in.Items {
		it := &in.Items[i]
		it.Item, it.Markers, it.Block, it.Remark = strings.TrimSpace(it.Item), strings.TrimSpace(it.Markers), strings.TrimSpace(it.Block), strings.TrimSpace(it.Remark)
		switch {
		case ok && !slices.Contains(allowed, it.Item):
			v.Add("items", "advice.item_unknown")
		case in.Kind == AdviceSpecial && it.Markers == "":
			v.Add("items", "advice.markers_required")
		case it.Block != "" && !slices.Contains(blocks, it.Block):
			v.Add("items", "advice.block_unknown")
		default:
			continue
		}
		break
	}
	return v.Err()
}

// blocks lists the paraffin blocks of a case the caller may see, which advice may name.
func (s *Service) blocks(ctx context.Context, id int64) ([]string, error) {
	d, err := s.deps.Cases.Detail(ctx, id)
	if err != nil {
		return nil, err
	}
	var blocks []string
	for _, sp := range d.Specimens {
		for _, b := range sp.Blocks {
			blocks = append(blocks, b.Name)
		}
	}
	return blocks, nil
}

// OrderAdvice lets the assigned expert order special exams or re-work.
func (s *Service) OrderAdvice(ctx context.Context, id int64, in AdviceInput) ([]Advice, error) {
	blocks, err := s.blocks(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := in.validate(blocks); err != nil {
		return nil, err
	}
	me := access.FromContext(ctx).UserID
	summary := in.Kind + ": "
	for i, it := range in.Items {
		if i > 0 {
			summary += "; "
		}
		summary += strings.TrimSpace(it.Item + " " + it.Markers + " " + it.Block)
	}
	err = s.deps.Cases.Apply(ctx, id, consultation.ActAdvice, summary, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		now := s.now()
		for _, it := range in.Items {
			if _, err := db.Exec(ctx, tx, tx.Builder().Insert("advices").
				Columns("consult_id", "kind", "item", "markers", "block", "remark", "status", "created_by", "created_at", "updated_at").
				Values(id, in.Kind, it.Item, it.Markers, it.Block, it.Remark, AdvicePending, me, now, now)); err != nil {
				return consultation.Change{}, apperr.Wrap(err, "insert advice")
			}
		}
		return consultation.Change{}, nil
	})
	if err != nil {
		return nil, err
	}
	return s.CaseAdvice(ctx, id, "")
}

// CancelAdvice withdraws pending advice of one kind from the expert's case.
func (s *Service) CancelAdvice(ctx context.Context, id int64, kind string, ids []int64) error {
	if len(ids) == 0 || len(ids) > 100 {
		return apperr.New(apperr.Invalid, "error.validation").Field("ids", "case.select_first")
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	return s.deps.Cases.Apply(ctx, id, consultation.ActAdviceCancel, "", func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		var rows []struct {
			Status string `db:"status"`
		}
		if err := db.Select(ctx, tx, &rows, tx.Builder().Select("status").From("advices").
			Where(sq.Eq{"id": ids}).Where("consult_id = ? AND kind = ?", id, kind)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "load advice")
		}
		if len(rows) != len(ids) {
			return consultation.Change{}, apperr.New(apperr.NotFound, "error.not_found")
		}
		for _, r := range rows {
			if r.Status != AdvicePending {
				return consultation.Change{}, refuse("advice.not_pending")
			}
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Delete("advices").Where(sq.Eq{"id": ids}).Where("consult_id = ?", id))
		return consultation.Change{}, apperr.Wrap(err, "cancel advice")
	})
}

const adviceColumns = `a.id, a.consult_id, c.consult_no, c.patient_name, c.pathology_number, h.name AS hospital_name, a.kind, a.item,
	a.markers, a.block, a.remark, a.status, a.created_by, cu.name AS created_by_name, a.created_at, a.third_id, tu.name AS third_name,
	a.transferred_at, a.result, du.name AS done_by_name, a.done_at, a.marker_results, a.interpretation, ru.name AS results_by_name, a.results_at`

func (s *Service) advices(b sq.StatementBuilderType) sq.SelectBuilder {
	return b.Select(adviceColumns).From("advices a").Join("consultations c ON c.id = a.consult_id").
		Join("hospitals h ON h.id = c.hospital_id").Join("users cu ON cu.id = a.created_by").
		LeftJoin("users tu ON tu.id = a.third_id").LeftJoin("users du ON du.id = a.done_by").
		LeftJoin("users ru ON ru.id = a.results_by")
}

// CaseAdvice lists the advice of a case the caller may see, of one kind or all.
func (s *Service) CaseAdvice(ctx context.Context, id int64, kind string) ([]Advice, error) {
	if _, err := s.deps.Cases.Case(ctx, id); err != nil {
		return nil, err
	}
	q := s.advices(s.db.Builder()).Where("a.consult_id = ?", id).OrderBy("a.id")
	if kind != "" {
		q = q.Where("a.kind = ?", kind)
	}
	out := []Advice{}
	return out, apperr.Wrap(db.Select(ctx, s.db, &out, q), "load advice")
}

// adviceOf loads one advice in tx.
func (s *Service) adviceOf(ctx context.Context, tx *db.Tx, adviceID int64) (*Advice, error) {
	var a Advice
	err := db.Get(ctx, tx, &a, s.advices(tx.Builder()).Where("a.id = ?", adviceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return &a, apperr.Wrap(err, "load advice")
}

// ExecuteAdvice records that the site did what the advice asked.
func (s *Service) ExecuteAdvice(ctx context.Context, kind string, adviceID int64, result string) error {
	result = strings.TrimSpace(result)
	if result == "" || len([]rune(result)) > 2000 {
		return apperr.New(apperr.Invalid, "error.validation").Field("result", "advice.result_required")
	}
	consultID, err := s.adviceCase(ctx, adviceID, kind)
	if err != nil {
		return err
	}
	me := access.FromContext(ctx).UserID
	return s.deps.Cases.Apply(ctx, consultID, consultation.ActAdviceExecute, result, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		return consultation.Change{}, s.finish(ctx, tx, adviceID, AdvicePending, map[string]any{"status": AdviceExecuted, "result": result, "done_by": me, "done_at": s.now()})
	})
}

// TransferAdvice passes a special exam to a third party of the case's center.
func (s *Service) TransferAdvice(ctx context.Context, adviceID, thirdID int64) error {
	consultID, err := s.adviceCase(ctx, adviceID, AdviceSpecial)
	if err != nil {
		return err
	}
	ctx, third := consultation.WithAddressees(ctx)
	third.Add(thirdID)
	return s.deps.Cases.Apply(ctx, consultID, consultation.ActAdviceTransfer, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		thirds, err := s.Thirds(ctx, r)
		if err != nil {
			return consultation.Change{}, err
		}
		if !slices.ContainsFunc(thirds, func(p consultation.PersonRef) bool { return p.ID == thirdID }) {
			return consultation.Change{}, apperr.New(apperr.Invalid, "error.validation").Field("third_id", "advice.third_unknown")
		}
		return consultation.Change{}, s.finish(ctx, tx, adviceID, AdvicePending, map[string]any{"status": AdviceTransferred, "third_id": thirdID, "transferred_at": s.now()})
	})
}

// Thirds lists the third parties a case's advice may be passed to.
func (s *Service) Thirds(ctx context.Context, r *consultation.Row) ([]consultation.PersonRef, error) {
	if r.CenterID == nil || s.deps.Thirds == nil {
		return []consultation.PersonRef{}, nil
	}
	return s.deps.Thirds(ctx, *r.CenterID)
}

// adviceCase returns the case of an advice of kind, refusing the wrong kind.
func (s *Service) adviceCase(ctx context.Context, adviceID int64, kind string) (int64, error) {
	var a struct {
		ConsultID int64  `db:"consult_id"`
		Kind      string `db:"kind"`
	}
	err := db.Get(ctx, s.db, &a, s.db.Builder().Select("consult_id", "kind").From("advices").Where("id = ?", adviceID))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return 0, apperr.Wrap(err, "load advice")
	}
	if _, err := s.deps.Cases.Case(ctx, a.ConsultID); err != nil {
		return 0, err
	}
	if a.Kind != kind {
		if kind == AdviceSpecial {
			return 0, refuse("advice.not_transferable")
		}
		return 0, apperr.New(apperr.NotFound, "error.not_found")
	}
	return a.ConsultID, nil
}

// finish moves an advice out of status from, refusing when it has moved on.
func (s *Service) finish(ctx context.Context, tx *db.Tx, adviceID int64, from string, vals map[string]any) error {
	vals["updated_at"] = s.now()
	res, err := db.Exec(ctx, tx, tx.Builder().Update("advices").SetMap(vals).Where("id = ? AND status = ?", adviceID, from))
	if err != nil {
		return apperr.Wrap(err, "update advice")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return refuse("advice.not_pending")
	}
	return nil
}

// ThirdAdvice lists the advice passed to the calling third party.
func (s *Service) ThirdAdvice(ctx context.Context, pending bool) ([]Advice, error) {
	me := access.FromContext(ctx).UserID
	q := s.advices(s.db.Builder()).Where("a.third_id = ?", me).OrderBy("a.status DESC", "a.id DESC").Limit(500)
	if pending {
		q = q.Where("a.status = ?", AdviceTransferred)
	}
	out := []Advice{}
	return out, apperr.Wrap(db.Select(ctx, s.db, &out, q), "load advice")
}

// ThirdResult is the third party's result of an exam passed to them.
func (s *Service) ThirdResult(ctx context.Context, adviceID int64, result string) error {
	result = strings.TrimSpace(result)
	if result == "" || len([]rune(result)) > 2000 {
		return apperr.New(apperr.Invalid, "error.validation").Field("result", "advice.result_required")
	}
	me := access.FromContext(ctx).UserID
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		a, err := s.adviceOf(ctx, tx, adviceID)
		if err != nil {
			return err
		}
		if a.ThirdID == nil || *a.ThirdID != me {
			return apperr.New(apperr.NotFound, "error.not_found")
		}
		if err := s.finish(ctx, tx, adviceID, AdviceTransferred, map[string]any{"status": AdviceDone, "result": result, "done_by": me, "done_at": s.now()}); err != nil {
			return err
		}
		if err := s.deps.Cases.RecordEvent(ctx, tx, a.ConsultID, consultation.ActAdviceResult, result); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "advice.third_result", ObjectType: "advice", ObjectID: adviceID, CaseID: a.ConsultID, Message: a.Item})
	})
}
