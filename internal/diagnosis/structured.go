package diagnosis

import (
	"context"
	"encoding/json"
	"strings"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// The structured report values of a diagnosis (package structured keeps the
// templates and their rules). The expert saves the values with the draft;
// publishing runs the template's rules on them again (a guard of the case
// state, so the case's list of actions offers publish exactly when it would
// succeed) and is refused while a blocking rule fails.

func decodeStructured(ds []Diagnosis) error {
	for i := range ds {
		ds[i].StructValues = map[string]any{}
		if raw := ds[i].StructValuesRaw; raw != "" {
			if err := json.Unmarshal([]byte(raw), &ds[i].StructValues); err != nil {
				return apperr.Wrap(err, "decode structured values")
			}
		}
	}
	return nil
}

// StructuredInput is the structured values of the draft: a template and its
// values, or no template (template_id 0) to drop them.
type StructuredInput struct {
	TemplateID int64          `json:"template_id" minimum:"0" doc:"The structured template (0: none)"`
	Values     map[string]any `json:"values,omitempty" doc:"Field key to value"`
}

// SaveStructured keeps the structured values with the draft diagnosis (a
// save: allowed when saving the draft is). The values must fit the
// template's fields; the rules are checked when publishing.
func (s *Service) SaveStructured(ctx context.Context, id int64, in StructuredInput) (*Diagnosis, error) {
	me := access.FromContext(ctx).UserID
	err := s.deps.Cases.Apply(ctx, id, consultation.ActSave, "", func(tx *db.Tx, r *consultation.Row, _ consultation.State) (consultation.Change, error) {
		vals := map[string]any{"struct_template_id": nil, "struct_values": "{}", "status": Draft, "updated_at": s.now()}
		if in.TemplateID != 0 {
			if s.deps.StructValues == nil {
				return consultation.Change{}, apperr.New(apperr.NotFound, "error.not_found")
			}
			clean, err := s.deps.StructValues(ctx, tx, in.TemplateID, in.Values)
			if err != nil {
				return consultation.Change{}, err
			}
			raw, _ := json.Marshal(clean)
			vals["struct_template_id"], vals["struct_values"] = in.TemplateID, string(raw)
		}
		work, err := s.working(ctx, tx, id)
		if err != nil {
			return consultation.Change{}, err
		}
		did := int64(0)
		if work != nil {
			did = work.ID
		} else if did, err = s.writeDraft(ctx, tx, id, me, Input{}); err != nil {
			return consultation.Change{}, err
		}
		_, err = db.Exec(ctx, tx, tx.Builder().Update("diagnoses").SetMap(vals).Where("id = ?", did))
		return consultation.Change{}, apperr.Wrap(err, "save structured values")
	})
	if err != nil {
		return nil, err
	}
	return s.Current(ctx, id)
}

// structuredPassed: a diagnosis whose structured values fail a blocking
// rule of their template is not published; the refusal lists the problems.
func (s *Service) structuredPassed(ctx context.Context, q db.Querier, r *consultation.Row) error {
	work, err := s.working(ctx, q, r.ID)
	if err != nil || work == nil || work.StructTemplateID == nil || s.deps.StructProblems == nil {
		return err
	}
	problems, err := s.deps.StructProblems(ctx, q, *work.StructTemplateID, work.StructValues)
	if err != nil || len(problems) == 0 {
		return err
	}
	return apperr.New(apperr.Conflict, "diagnosis.structured_failed").With("problems", strings.Join(problems, "; "))
}
