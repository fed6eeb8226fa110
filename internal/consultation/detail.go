package consultation

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/upload"
)

// Detail returns everything about a case the caller may see.
func (s *Service) Detail(ctx context.Context, id int64) (*Detail, error) {
	return s.detailIn(ctx, s.db, id)
}

func (s *Service) detailIn(ctx context.Context, q db.Runner, id int64) (*Detail, error) {
	r, err := s.row(ctx, q, id)
	if err != nil {
		return nil, err
	}
	d := &Detail{Row: *r}
	var caseJSON string
	if err := db.Get(ctx, q, &caseJSON, s.db.Builder().Select("case_data").From("consultations").Where("id = ?", id)); err != nil {
		return nil, apperr.Wrap(err, "load case data")
	}
	d.Case = json.RawMessage(caseJSON)
	if d.Specimens, err = s.specimens(ctx, q, id); err != nil {
		return nil, err
	}
	if d.Attachments, err = s.attachments(ctx, q, id); err != nil {
		return nil, err
	}
	if d.Slides, err = s.slides(ctx, q, id); err != nil {
		return nil, err
	}
	if err := s.staffOf(ctx, q, d); err != nil {
		return nil, err
	}
	return d, nil
}

// actions lists the actions the caller may make on r now, for the buttons
// the web app shows: exactly those whose role, state, holder and guards
// pass, the same checks the action makes (only its input may still be
// refused). Answering an invitation is per invitation, so it is not listed.
func (s *Service) actions(ctx context.Context, q db.Querier, r *Row) []Action {
	p := access.FromContext(ctx)
	out := []Action{}
	for name, t := range Transitions {
		if p.HasAny(t.Roles) && t.From(r.State) && t.holds(p, r) == nil && name != ActInviteReply && s.guarded(ctx, q, name, r) == nil {
			out = append(out, name)
		}
	}
	if staffBindable(p, r) {
		out = append(out, ActBindStaff)
	}
	slices.Sort(out)
	return out
}

func (s *Service) staffOf(ctx context.Context, q db.Querier, d *Detail) error {
	var st struct {
		ID   *int64  `db:"staff_id"`
		Name *string `db:"name"`
	}
	err := db.Get(ctx, q, &st, s.db.Builder().Select("c.staff_id", "u.name").From("consultations c").
		LeftJoin("users u ON u.id = c.staff_id").Where("c.id = ?", d.ID))
	if err != nil {
		return apperr.Wrap(err, "load staff")
	}
	d.StaffID = st.ID
	if st.Name != nil {
		d.StaffName = *st.Name
	}
	return nil
}

func (s *Service) specimens(ctx context.Context, q db.Querier, id int64) ([]Specimen, error) {
	out := []Specimen{}
	err := db.Select(ctx, q, &out, s.db.Builder().Select("id", "serial_number", "name", "part", "specimen_type", "count",
		"fixative", "leave_body_at", "fixed_at").From("specimens").Where("consult_id = ?", id).OrderBy("sort", "id"))
	if err != nil {
		return nil, apperr.Wrap(err, "load specimens")
	}
	var blocks []Block
	err = db.Select(ctx, q, &blocks, s.db.Builder().Select("b.id", "b.specimen_id", "b.name", "b.slide_number", "b.draw_part", "b.gross_description").
		From("paraffin_blocks b").Join("specimens sp ON sp.id = b.specimen_id").Where("sp.consult_id = ?", id).OrderBy("b.sort", "b.id"))
	if err != nil {
		return nil, apperr.Wrap(err, "load blocks")
	}
	for i := range out {
		out[i].Blocks = []Block{}
		for _, b := range blocks {
			if b.SpecimenID == out[i].ID {
				out[i].Blocks = append(out[i].Blocks, b)
			}
		}
	}
	return out, nil
}

func (s *Service) attachments(ctx context.Context, q db.Querier, id int64) ([]Attachment, error) {
	out := []Attachment{}
	err := db.Select(ctx, q, &out, s.db.Builder().Select("a.id", "a.file_id", "a.type", "f.filename", "f.size", "a.created_at").
		From("attachments a").Join("files f ON f.id = a.file_id").Where("a.consult_id = ? AND a.status >= 0", id).OrderBy("a.sort", "a.id"))
	for i := range out {
		out[i].URL = fmt.Sprintf("/api/files/%d", out[i].FileID)
	}
	return out, apperr.Wrap(err, "load attachments")
}

// slides are the case's slides, as the slide domain lists them.
func (s *Service) slides(ctx context.Context, q db.Runner, id int64) ([]Slide, error) {
	l, err := upload.OfCase(ctx, q, id)
	out := make([]Slide, len(l))
	for i, sl := range l {
		out[i] = Slide(sl)
	}
	return out, err
}

// CasesOfFile lists the cases an uploaded file is attached to, for the
// files domain to decide who may read it.
func (s *Service) CasesOfFile(ctx context.Context, fileID int64) ([]int64, error) {
	var out []int64
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("consult_id").From("attachments").
		Where("file_id = ? AND status >= 0", fileID).OrderBy("consult_id"))
	return out, apperr.Wrap(err, "file cases")
}
