package slideserver

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Limits of one user's annotation set on a slide.
const (
	MaxLabels          = 20000
	maxPointsPerLabel  = 20000
	maxPointsPerSet    = 400000
	annotationBodySize = 16 << 20
)

// Point is a position in full-resolution image pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Label is one annotation (spec 1 §3 Annotation label, in slide pixels).
type Label struct {
	ID          int64   `json:"id" minimum:"1"`
	Tool        string  `json:"tool" enum:"rect,ellipse,polygon,freehand,arrow,line,text"`
	Points      []Point `json:"points" doc:"rect/ellipse: two opposite corners; arrow/line: from, to; text: anchor; others: vertices"`
	Color       string  `json:"color" pattern:"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"`
	LineWidth   float64 `json:"lineWidth" minimum:"1" maximum:"50"`
	Description string  `json:"description" maxLength:"2000"`
	FontSize    float64 `json:"fontSize,omitempty" minimum:"0" maximum:"200"`
	Measure     bool    `json:"measure,omitempty" doc:"Drawn as a measurement (shows its length or area)"`
}

// AnnotationSet is one user's annotations of a slide.
type AnnotationSet struct {
	UserID    int64      `json:"user_id"`
	Name      string     `json:"name"`
	Labels    []Label    `json:"labels"`
	Version   int        `json:"version" doc:"Incremented by every save; 0 before the first"`
	UpdatedAt *time.Time `json:"updated_at"`
}

// Annotations is what the viewer shows: the caller's own set (editable) and
// the sets of the others who annotated the slide (read-only).
type Annotations struct {
	Mine   AnnotationSet   `json:"mine"`
	Others []AnnotationSet `json:"others"`
}

type annotationsIn struct {
	ID   int64 `path:"id"`
	Body struct {
		Labels []Label `json:"labels" maxItems:"20000"`
	}
}

func (s *Server) saveAnnotations(ctx context.Context, in *annotationsIn) (*AnnotationSet, error) {
	return s.SaveAnnotations(ctx, in.ID, in.Body.Labels)
}

type annotationRow struct {
	UserID    int64     `db:"user_id"`
	Name      string    `db:"name"`
	Labels    string    `db:"labels"`
	Version   int       `db:"version"`
	UpdatedAt time.Time `db:"updated_at"`
}

func (r annotationRow) set() (AnnotationSet, error) {
	out := AnnotationSet{UserID: r.UserID, Name: r.Name, Version: r.Version, Labels: []Label{}}
	at := r.UpdatedAt.UTC()
	out.UpdatedAt = &at
	if err := json.Unmarshal([]byte(r.Labels), &out.Labels); err != nil {
		return out, apperr.Wrap(err, "decode annotations")
	}
	return out, nil
}

// Annotations returns the annotations of a slide the caller may see.
func (s *Server) Annotations(ctx context.Context, id int64) (*Annotations, error) {
	if _, err := s.visible(ctx, id); err != nil {
		return nil, err
	}
	me := access.FromContext(ctx).UserID
	var rows []annotationRow
	if err := db.Select(ctx, s.db, &rows, s.db.Builder().Select("a.user_id", "u.name", "a.labels", "a.version", "a.updated_at").
		From("slide_annotations a").Join("users u ON u.id = a.user_id").
		Where("a.slide_id = ?", id).OrderBy("a.updated_at DESC", "a.user_id")); err != nil {
		return nil, apperr.Wrap(err, "load annotations")
	}
	out := &Annotations{Mine: AnnotationSet{UserID: me, Labels: []Label{}}, Others: []AnnotationSet{}}
	for _, r := range rows {
		set, err := r.set()
		if err != nil {
			return nil, err
		}
		switch {
		case r.UserID == me:
			out.Mine = set
		case len(set.Labels) > 0:
			out.Others = append(out.Others, set)
		}
	}
	if out.Mine.Name == "" {
		db.Get(ctx, s.db, &out.Mine.Name, s.db.Builder().Select("name").From("users").Where("id = ?", me)) //nolint:errcheck
	}
	return out, nil
}

// validLabels checks the geometry of labels against the slide's size
// (w, h; 0 when unknown): the number of points each tool needs, finite
// coordinates near the image, unique ids.
func validLabels(labels []Label, w, h int64) error {
	// Shapes may reach somewhat past the image, never far.
	limX, limY := float64(w), float64(h)
	if w <= 0 || h <= 0 {
		limX, limY = 1e7, 1e7
	}
	ids := make(map[int64]bool, len(labels))
	total := 0
	for i, l := range labels {
		n := len(l.Points)
		total += n
		ok := true
		switch l.Tool {
		case "rect", "ellipse", "arrow", "line":
			ok = n == 2
		case "text":
			ok = n == 1
		case "polygon":
			ok = n >= 3 && n <= maxPointsPerLabel
		case "freehand":
			ok = n >= 2 && n <= maxPointsPerLabel
		}
		for _, p := range l.Points {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < -limX || p.X > 2*limX || p.Y < -limY || p.Y > 2*limY {
				ok = false
				break
			}
		}
		if !ok {
			return apperr.New(apperr.Invalid, "error.validation").Field("labels", "slide.ann_geometry", "index", i+1, "id", l.ID)
		}
		if ids[l.ID] {
			return apperr.New(apperr.Invalid, "error.validation").Field("labels", "slide.ann_duplicate_id", "id", l.ID)
		}
		ids[l.ID] = true
		if l.Tool == "text" && l.Description == "" {
			return apperr.New(apperr.Invalid, "error.validation").Field("labels", "slide.ann_text", "index", i+1, "id", l.ID)
		}
	}
	if total > maxPointsPerSet {
		return apperr.New(apperr.TooLarge, "slide.ann_too_many").With("max", maxPointsPerSet)
	}
	return nil
}

// SaveAnnotations replaces the caller's annotations of a slide.
func (s *Server) SaveAnnotations(ctx context.Context, id int64, labels []Label) (*AnnotationSet, error) {
	sl, err := s.visible(ctx, id)
	if err != nil {
		return nil, err
	}
	if labels == nil {
		labels = []Label{}
	}
	if err := validLabels(labels, sl.Width, sl.Height); err != nil {
		return nil, err
	}
	body, err := json.Marshal(labels)
	if err != nil {
		return nil, apperr.Wrap(err, "encode annotations")
	}
	me := access.FromContext(ctx).UserID
	now := s.now().UTC()
	var row annotationRow
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("slide_annotations").
			Columns("slide_id", "user_id", "labels", "label_count", "version", "updated_at").Values(id, me, string(body), len(labels), 1, now).
			Suffix("ON CONFLICT (slide_id, user_id) DO UPDATE SET labels = excluded.labels, label_count = excluded.label_count, "+
				"version = slide_annotations.version + 1, updated_at = excluded.updated_at"))
		if err != nil {
			return apperr.Wrap(err, "save annotations")
		}
		if err := db.Get(ctx, tx, &row, tx.Builder().Select("a.user_id", "u.name", "a.labels", "a.version", "a.updated_at").
			From("slide_annotations a").Join("users u ON u.id = a.user_id").Where("a.slide_id = ? AND a.user_id = ?", id, me)); err != nil {
			return apperr.Wrap(err, "load annotations")
		}
		e := audit.Entry{Action: "slide.annotations_save", ObjectType: "slide", ObjectID: id,
			After: map[string]any{"labels": len(labels), "version": row.Version}}
		if sl.ConsultID != nil {
			e.CaseID = *sl.ConsultID
		}
		return audit.Write(ctx, tx, tx.Dialect, e)
	})
	if err != nil {
		return nil, err
	}
	if s.annotationsSaved != nil && sl.ConsultID != nil {
		s.annotationsSaved(ctx, *sl.ConsultID, id)
	}
	set, err := row.set()
	return &set, err
}

// UseAnnotationsSaved sets what is told, after commit, that the caller
// saved their annotations of a case's slide (live meetings push them).
func (s *Server) UseAnnotationsSaved(f func(ctx context.Context, consultID, slideID int64)) {
	s.annotationsSaved = f
}
