package advice

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"telepath/internal/audit"
	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// Limits of recorded marker results.
const (
	maxMarkerResults     = 50
	maxMarkerRunes       = 50
	maxMarkerResultRunes = 100
	maxInterpretRunes    = 1000
)

// MarkerResult is the result of one marker of a special exam, as entered
// ("+", "-", "弱+", "约30%+").
type MarkerResult struct {
	Marker string `json:"marker" maxLength:"50" doc:"Antibody, stain or gene"`
	Result string `json:"result" maxLength:"100" doc:"As read, e.g. +, -, 弱+, 约30%+"`
}

// MarkerResults is stored as a JSON array in advices.marker_results.
type MarkerResults []MarkerResult

// Scan reads marker results stored as JSON text.
func (m *MarkerResults) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	case nil:
	default:
		return fmt.Errorf("diagnosis: marker results from %T", src)
	}
	*m = MarkerResults{}
	if len(b) == 0 {
		return nil
	}
	return json.Unmarshal(b, m)
}

// Value stores marker results as JSON text.
func (m MarkerResults) Value() (driver.Value, error) {
	if m == nil {
		return "[]", nil
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// AdviceResultsInput is what the expert records for an executed special exam;
// each store replaces the previous one.
type AdviceResultsInput struct {
	Results        []MarkerResult `json:"results" maxItems:"50"`
	Interpretation string         `json:"interpretation,omitempty" maxLength:"1000" doc:"Overall interpretation"`
}

func (in *AdviceResultsInput) validate() error {
	var v apperr.Validation
	if len(in.Results) == 0 || len(in.Results) > maxMarkerResults {
		v.Add("results", "advice.results_count", "max", maxMarkerResults)
	}
	seen := map[string]bool{}
	for i := range in.Results {
		r := &in.Results[i]
		r.Marker, r.Result = strings.TrimSpace(r.Marker), strings.TrimSpace(r.Result)
		key := strings.ToUpper(r.Marker)
		switch {
		case r.Marker == "" || r.Result == "":
			v.Add("results", "advice.marker_result_required")
		case runes(r.Marker) > maxMarkerRunes || runes(r.Result) > maxMarkerResultRunes:
			v.Add("results", "advice.marker_result_too_long", "marker", maxMarkerRunes, "result", maxMarkerResultRunes)
		case seen[key]:
			v.Add("results", "advice.marker_duplicate", "marker", r.Marker)
		default:
			seen[key] = true
			continue
		}
		break
	}
	in.Interpretation = strings.TrimSpace(in.Interpretation)
	if runes(in.Interpretation) > maxInterpretRunes {
		v.Add("interpretation", "advice.interpretation_too_long", "max", maxInterpretRunes)
	}
	return v.Err()
}

func runes(s string) int { return len([]rune(s)) }

// adviceSummary is one advice item as the case log shows it.
func adviceSummary(it AdviceItem) string {
	s := strings.TrimSpace(it.Item + " " + it.Markers + " " + it.Block)
	if it.Remark != "" {
		s += " (" + it.Remark + ")"
	}
	return s
}

// UpdateAdvice lets the assigned expert change a still-pending advice item of
// the case, validated as when ordering.
func (s *Service) UpdateAdvice(ctx context.Context, id, adviceID int64, it AdviceItem) ([]Advice, error) {
	blocks, err := s.blocks(ctx, id)
	if err != nil {
		return nil, err
	}
	old, err := s.caseAdvice(ctx, s.db, id, adviceID)
	if err != nil {
		return nil, err
	}
	in := AdviceInput{Kind: old.Kind, Items: []AdviceItem{it}}
	verr := in.validate(blocks)
	it = in.Items[0]
	before := AdviceItem{Item: old.Item, Markers: old.Markers, Block: old.Block, Remark: old.Remark}
	detail := adviceSummary(before) + " → " + adviceSummary(it)
	err = s.deps.Cases.Apply(ctx, id, consultation.ActAdviceUpdate, detail, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		if verr != nil {
			return consultation.Change{}, verr
		}
		if err := s.finish(ctx, tx, adviceID, AdvicePending, map[string]any{"item": it.Item, "markers": it.Markers, "block": it.Block, "remark": it.Remark}); err != nil {
			return consultation.Change{}, err
		}
		return consultation.Change{}, audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "advice.update", ObjectType: "advice", ObjectID: adviceID, CaseID: id, Before: before, After: it, Message: detail})
	})
	if err != nil {
		return nil, err
	}
	return s.CaseAdvice(ctx, id, "")
}

// caseAdvice loads one advice of case id (404 for another case's).
func (s *Service) caseAdvice(ctx context.Context, q db.Querier, id, adviceID int64) (*Advice, error) {
	var a Advice
	err := db.Get(ctx, q, &a, s.advices(s.db.Builder()).Where("a.id = ? AND a.consult_id = ?", adviceID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	return &a, apperr.Wrap(err, "load advice")
}

// StoreAdviceResults records (replacing) the marker results of an executed or
// answered special exam of the expert's case.
func (s *Service) StoreAdviceResults(ctx context.Context, adviceID int64, in AdviceResultsInput) (*Advice, error) {
	consultID, err := s.adviceConsult(ctx, adviceID)
	if err != nil {
		return nil, err
	}
	verr := in.validate()
	me := access.FromContext(ctx).UserID
	var parts []string
	for _, r := range in.Results {
		parts = append(parts, r.Marker+" "+r.Result)
	}
	detail := strings.Join(parts, ", ")
	err = s.deps.Cases.Apply(ctx, consultID, consultation.ActAdviceResults, detail, func(tx *db.Tx, _ *consultation.Row, _ consultation.State) (consultation.Change, error) {
		a, err := s.caseAdvice(ctx, tx, consultID, adviceID)
		if err != nil {
			return consultation.Change{}, err
		}
		switch {
		case a.Kind != AdviceSpecial:
			return consultation.Change{}, refuse("advice.results_special_only")
		case a.Status != AdviceExecuted && a.Status != AdviceDone:
			return consultation.Change{}, refuse("advice.results_not_ready")
		case verr != nil:
			return consultation.Change{}, verr
		}
		results := MarkerResults(in.Results)
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("advices").SetMap(map[string]any{"marker_results": results, "interpretation": in.Interpretation,
			"results_by": me, "results_at": s.now(), "updated_at": s.now()}).Where("id = ?", adviceID)); err != nil {
			return consultation.Change{}, apperr.Wrap(err, "store marker results")
		}
		return consultation.Change{}, audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "advice.results", ObjectType: "advice", ObjectID: adviceID, CaseID: a.ConsultID,
			Before: map[string]any{"results": a.MarkerResults, "interpretation": a.Interpretation},
			After:  map[string]any{"results": results, "interpretation": in.Interpretation}, Message: a.Item})
	})
	if err != nil {
		return nil, err
	}
	return s.caseAdvice(ctx, s.db, consultID, adviceID)
}

// adviceConsult returns the case of an advice the caller may see.
func (s *Service) adviceConsult(ctx context.Context, adviceID int64) (int64, error) {
	var consultID int64
	err := db.Get(ctx, s.db, &consultID, s.db.Builder().Select("consult_id").From("advices").Where("id = ?", adviceID))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return 0, apperr.Wrap(err, "load advice")
	}
	if _, err := s.deps.Cases.Case(ctx, consultID); err != nil {
		return 0, err
	}
	return consultID, nil
}

// markerResultsText is the recorded results of a case's special exams as
// the report prints them, one line per exam: "CK（+），CD20（-）" in Chinese,
// "CK (+), CD20 (-)" in English; exams other than immunohistochemistry are
// named first, and the interpretation follows.
func markerResultsText(lang i18n.Lang, advices []Advice) string {
	zh := lang == i18n.ZH
	open, close, sep, colon := " (", ")", ", ", ": "
	if zh {
		open, close, sep, colon = "（", "）", "，", "："
	}
	var lines []string
	for _, a := range advices {
		if a.Kind != AdviceSpecial || len(a.MarkerResults) == 0 {
			continue
		}
		parts := make([]string, len(a.MarkerResults))
		for i, r := range a.MarkerResults {
			parts[i] = r.Marker + open + r.Result + close
		}
		line := strings.Join(parts, sep)
		if a.Item != "immunohistochemisty" {
			line = i18n.T(lang, "advice.item."+a.Item, nil) + colon + line
		}
		lines = append(lines, line)
		if a.Interpretation != "" {
			lines = append(lines, a.Interpretation)
		}
	}
	return strings.Join(lines, "\n")
}

// WithMarkerResults appends the case's recorded marker results to the
// immunohistochemistry text the site entered.
func (s *Service) WithMarkerResults(ctx context.Context, lang i18n.Lang, id int64, entered string) string {
	l, err := s.CaseAdvice(ctx, id, AdviceSpecial)
	if err != nil {
		return entered
	}
	text := markerResultsText(lang, l)
	if strings.TrimSpace(entered) == "" {
		return text
	}
	if text == "" {
		return entered
	}
	return strings.TrimRight(entered, "\n ") + "\n" + text
}
