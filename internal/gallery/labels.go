package gallery

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"telepath/internal/platform/apperr"
	"telepath/internal/report"
)

// Tool is the kind of an annotation label (spec 1 §4 Image annotation editor modes).
type Tool string

// The drawing tools.
const (
	ToolFont      Tool = "font"
	ToolLine      Tool = "line"
	ToolArrow     Tool = "arrow"
	ToolBilateral Tool = "bilateral"
	ToolFlag      Tool = "flag"
	ToolStar      Tool = "star"
	ToolEllipse   Tool = "ellipse"
	ToolRect      Tool = "rect"
	ToolCurve     Tool = "curve"
)

// Limits of an image's labels.
const (
	MaxLabels      = 200
	maxCurvePoints = 2000
	maxDescription = 200
)

// StrokeDefault is a label's default stroke colour; Palette the fill (and
// stroke) colours the label form offers (spec 1 §3 Annotation label).
const StrokeDefault = "#027AFF"

// Palette is the spec's colour palette.
var Palette = []string{"#FF6261", "#E8C141", "#35D9D3", "#3795FE", "#B352BE"}

// ImageLabel is one annotation drawn on an image, in the image's pixels. Points
// are x,y pairs: the text's top left for font, the drawn polyline for
// curve, the two corners of the drag for every other tool.
type ImageLabel struct {
	ID          int       `json:"id" minimum:"2"`
	Tool        Tool      `json:"tool" enum:"font,line,arrow,bilateral,flag,star,ellipse,rect,curve"`
	Points      []float64 `json:"points" maxItems:"4000"`
	StrokeStyle string    `json:"strokeStyle"`
	FillStyle   string    `json:"fillStyle"`
	LineWidth   float64   `json:"lineWidth"`
	Description string    `json:"description"`
	FontSize    float64   `json:"fontSize"`
	Angle       float64   `json:"angle"`
}

// checkLabels validates labels drawn on an image of w×h pixels.
func checkLabels(labels []ImageLabel, w, h int) error {
	var v apperr.Validation
	if len(labels) > MaxLabels {
		v.Add("labels", "gallery.too_many_labels", "max", MaxLabels)
		return v.Err()
	}
	seen := map[int]bool{}
	for i, l := range labels {
		bad := func(key string, args ...any) { v.Add("labels", key, append([]any{"n", i + 1}, args...)...) }
		switch {
		case l.ID < 2 || seen[l.ID]:
			bad("gallery.label_bad_id")
		case !validTool(l.Tool):
			bad("gallery.label_bad_tool")
		case !pointsFit(l.Tool, l.Points):
			bad("gallery.label_bad_points")
		case !inside(l.Points, w, h):
			bad("gallery.label_outside")
		case !colour(l.StrokeStyle, false) || !colour(l.FillStyle, true):
			bad("gallery.label_bad_colour")
		case l.LineWidth < 1 || l.LineWidth > 50 || l.FontSize < 8 || l.FontSize > 200 || math.IsNaN(l.Angle) || math.Abs(l.Angle) > 360:
			bad("gallery.label_bad_size")
		case len([]rune(l.Description)) > maxDescription:
			bad("gallery.label_too_long", "max", maxDescription)
		case l.Tool == ToolFont && strings.TrimSpace(l.Description) == "":
			bad("gallery.label_no_text")
		}
		seen[l.ID] = true
	}
	return v.Err()
}

func validTool(t Tool) bool {
	return slices.Contains([]Tool{ToolFont, ToolLine, ToolArrow, ToolBilateral, ToolFlag, ToolStar, ToolEllipse, ToolRect, ToolCurve}, t)
}

func pointsFit(t Tool, p []float64) bool {
	switch t {
	case ToolFont:
		return len(p) == 2
	case ToolCurve:
		return len(p) >= 4 && len(p)%2 == 0 && len(p) <= 2*maxCurvePoints
	default:
		return len(p) == 4
	}
}

func inside(p []float64, w, h int) bool {
	for i := 0; i+1 < len(p); i += 2 {
		x, y := p[i], p[i+1]
		if math.IsNaN(x) || math.IsNaN(y) || x < 0 || y < 0 || x > float64(w) || y > float64(h) {
			return false
		}
	}
	return true
}

func colour(c string, empty bool) bool {
	if c == "" {
		return empty
	}
	return strings.EqualFold(c, StrokeDefault) || slices.ContainsFunc(Palette, func(p string) bool { return strings.EqualFold(p, c) })
}

// decodeLabels reads stored labels; a broken column reads as none.
func decodeLabels(s string) []ImageLabel {
	var out []ImageLabel
	if json.Unmarshal([]byte(s), &out) != nil || out == nil {
		return []ImageLabel{}
	}
	return out
}

// reportLabels are labels as the report draws them.
func reportLabels(ls []ImageLabel) []report.Label {
	out := make([]report.Label, len(ls))
	for i, l := range ls {
		out[i] = report.Label{Tool: string(l.Tool), Points: l.Points, Stroke: l.StrokeStyle, Fill: l.FillStyle,
			LineWidth: l.LineWidth, Text: l.Description, FontSize: l.FontSize}
	}
	return out
}
