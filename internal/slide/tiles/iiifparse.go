package tiles

import (
	"math"
	"strconv"
	"strings"
)

// iiifRequest is a parsed and validated IIIF Image API 3.0 request.
type iiifRequest struct {
	x, y, w, h int // region in full-resolution pixels
	ow, oh     int // output size before rotation
	rotation   int // 0, 90, 180 or 270
	mirror     bool
	gray       bool
	format     string // "jpg" or "png"
}

// parseIIIF validates the four path parameters and the format against an
// image of width×height with output sides capped at maxSize.
func parseIIIF(region, size, rotation, quality, format string, width, height, maxSize int) (iiifRequest, error) {
	var q iiifRequest
	var err error
	if q.x, q.y, q.w, q.h, err = parseRegion(region, width, height); err != nil {
		return q, err
	}
	if q.ow, q.oh, err = parseSize(size, q.w, q.h, maxSize); err != nil {
		return q, err
	}
	rot := rotation
	if strings.HasPrefix(rot, "!") {
		q.mirror, rot = true, rot[1:]
	}
	switch rot {
	case "0", "90", "180", "270":
		q.rotation, _ = strconv.Atoi(rot)
	default:
		return q, badRequest("rotation %q: only 0, 90, 180 and 270 (optionally with !) are supported", rotation)
	}
	switch quality {
	case "default", "color":
	case "gray":
		q.gray = true
	default:
		return q, badRequest("quality %q: use default, color or gray", quality)
	}
	switch format {
	case "jpg", "png":
		q.format = format
	default:
		return q, badRequest("format %q: use jpg or png", format)
	}
	return q, nil
}

func parseRegion(s string, width, height int) (x, y, w, h int, err error) {
	switch {
	case s == "full":
		return 0, 0, width, height, nil
	case s == "square":
		side := min(width, height)
		return (width - side) / 2, (height - side) / 2, side, side, nil
	}
	pct := strings.HasPrefix(s, "pct:")
	v, ok := parseFloats(strings.TrimPrefix(s, "pct:"), 4)
	if !ok {
		return 0, 0, 0, 0, badRequest("region %q: use full, square, x,y,w,h or pct:x,y,w,h", s)
	}
	if pct {
		for i := range v {
			if v[i] > 100 {
				v[i] = 100
			}
		}
		v[0], v[2] = v[0]*float64(width)/100, v[2]*float64(width)/100
		v[1], v[3] = v[1]*float64(height)/100, v[3]*float64(height)/100
	} else {
		for _, f := range v {
			if f != math.Trunc(f) {
				return 0, 0, 0, 0, badRequest("region %q: pixel values must be integers", s)
			}
		}
	}
	if v[2] <= 0 || v[3] <= 0 {
		return 0, 0, 0, 0, badRequest("region %q: width and height must be positive", s)
	}
	x, y = int(math.Round(v[0])), int(math.Round(v[1]))
	x1 := int(math.Round(math.Min(v[0]+v[2], float64(width))))
	y1 := int(math.Round(math.Min(v[1]+v[3], float64(height))))
	if x >= width || y >= height || x1 <= x || y1 <= y {
		return 0, 0, 0, 0, badRequest("region %q lies outside the %dx%d image", s, width, height)
	}
	return x, y, x1 - x, y1 - y, nil
}

// parseFloats parses exactly n comma-separated non-negative numbers.
func parseFloats(s string, n int) ([]float64, bool) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(p, "eE+-xX_") {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

func parseSize(s string, rw, rh, maxSize int) (int, int, error) {
	orig := s
	up := strings.HasPrefix(s, "^")
	s = strings.TrimPrefix(s, "^")
	var w, h float64
	fw, fh := float64(rw), float64(rh)
	switch {
	case s == "max":
		k := math.Min(float64(maxSize)/fw, float64(maxSize)/fh)
		if !up {
			k = math.Min(k, 1)
		}
		w, h = fw*k, fh*k
	case strings.HasPrefix(s, "pct:"):
		v, ok := parseFloats(s[4:], 1)
		if !ok || v[0] <= 0 {
			return 0, 0, badRequest("size %q: bad percentage", orig)
		}
		w, h = fw*v[0]/100, fh*v[0]/100
	default:
		confined := strings.HasPrefix(s, "!")
		s = strings.TrimPrefix(s, "!")
		ws, hs, ok := strings.Cut(s, ",")
		if !ok || confined && (ws == "" || hs == "") {
			return 0, 0, badRequest("size %q: use max, w,, ,h, pct:n, w,h or !w,h", orig)
		}
		pw, errW := parseDim(ws)
		ph, errH := parseDim(hs)
		if errW != nil || errH != nil || pw == 0 && ph == 0 {
			return 0, 0, badRequest("size %q: use max, w,, ,h, pct:n, w,h or !w,h", orig)
		}
		switch {
		case confined:
			k := math.Min(pw/fw, ph/fh)
			w, h = fw*k, fh*k
		case ws == "":
			w, h = fw*ph/fh, ph
		case hs == "":
			w, h = pw, fh*pw/fw
		default:
			w, h = pw, ph
		}
	}
	ow, oh := max(1, int(math.Round(w))), max(1, int(math.Round(h)))
	if !up && (ow > rw || oh > rh) {
		return 0, 0, badRequest("size %q is larger than the region (%dx%d); use ^ to upscale", orig, rw, rh)
	}
	if ow > maxSize || oh > maxSize {
		return 0, 0, badRequest("size %q: %dx%d exceeds the limit of %d pixels a side", orig, ow, oh, maxSize)
	}
	return ow, oh, nil
}

func parseDim(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 1<<20 {
		return 0, badRequest("bad size %q", s)
	}
	return float64(n), nil
}
