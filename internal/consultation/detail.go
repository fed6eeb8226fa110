package consultation

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Detail returns everything about a case the caller may see.
func (s *Service) Detail(ctx context.Context, id int64) (*Detail, error) {
	return s.detailIn(ctx, s.db, id)
}

func (s *Service) detailIn(ctx context.Context, q db.Querier, id int64) (*Detail, error) {
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

// actions lists the transitions p may make on r now, for the buttons the
// web app shows; the server checks each again when it is made.
// Answering an invitation is per invitation, so it is not listed.
func (s *Service) actions(p *access.Principal, r *Row) []string {
	out := []string{}
	for name, t := range Transitions {
		if p.HasAny(t.Roles) && t.From(r.State) && t.holds(p, r) == nil && name != "invite_reply" {
			out = append(out, name)
		}
	}
	// Naming the staff member is no state change, so it is not a transition.
	if p.HasAny(access.Allocators) && r.Status == StatusSubmitted && r.IsRecall == RecallNone {
		out = append(out, "bind_staff")
	}
	sort.Strings(out)
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

func (s *Service) slides(ctx context.Context, q db.Querier, id int64) ([]Slide, error) {
	out := []Slide{}
	err := db.Select(ctx, q, &out, s.db.Builder().Select("id", "filename", "filesize", "sha256", "status", "format", "viewable",
		"error", "ranse", "specimen_name", "paraffin_block_name", "sort", "created_at").
		From("slides").Where("consult_id = ? AND status >= 0", id).OrderBy("sort", "id"))
	return out, apperr.Wrap(err, "load slides")
}
