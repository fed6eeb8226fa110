package slidegen

import (
	"fmt"
	"image"
	"os"
	"runtime"
	"sync"
)

// Options controls the generated slide. Zero values take the defaults.
type Options struct {
	Width, Height int    // level 0 size; default 2048×1536
	TileSize      int    // default 256 (WriteSVS: 240)
	Compression   string // "jpeg" (default), "lzw", "deflate" or "none"
	Predictor     bool   // horizontal predictor for lzw/deflate
	Quality       int    // JPEG quality, default 90
	BigTIFF       bool
	BigEndian     bool
	Striped       bool // store level 0 in strips rather than tiles
	SubIFDs       bool // store reduced levels as SubIFDs of level 0
	MinLevelSize  int  // smallest level side; default 256 (SVS: 1024)
	MPP           float64
	Seed          int64
}

func (o *Options) defaults(tile int) {
	if o.Width <= 0 {
		o.Width = 2048
	}
	if o.Height <= 0 {
		o.Height = 1536
	}
	if o.TileSize <= 0 {
		o.TileSize = tile
	}
	if o.Compression == "" {
		o.Compression = "jpeg"
	}
	if o.Quality <= 0 {
		o.Quality = 90
	}
	if o.MPP <= 0 {
		o.MPP = 0.25
	}
}

// LevelSize is the size of a level downsampled by ds from w×h, as the
// generator lays out its pyramids.
func LevelSize(w, h, ds int) (int, int) {
	return max(1, w/ds), max(1, h/ds)
}

// compression codes.
var compCode = map[string]uint64{"none": 1, "lzw": 5, "jpeg": 7, "deflate": 8}

// imageSpec describes one stored image of the file.
type imageSpec struct {
	ds          int // downsample of the texture
	w, h        int
	tile        int // 0: stripped
	rps         int
	comp        string
	rgb         bool // JPEG with photometric RGB (Aperio style)
	subfile     uint64
	description string
	extra       []field
}

// writer builds one file.
type writer struct {
	o   Options
	tex Texture
	tw  *tiffWriter
}

// WriteTIFF writes a generic pyramidal TIFF, like
// `vips tiffsave --tile --pyramid`, with levels halving down to MinLevelSize.
func WriteTIFF(path string, o Options) error {
	o.defaults(256)
	if _, ok := compCode[o.Compression]; !ok {
		return fmt.Errorf("slidegen: unknown compression %q", o.Compression)
	}
	minSide := o.MinLevelSize
	if minSide <= 0 {
		minSide = 256
	}
	var specs []imageSpec
	for ds := 1; ; ds *= 2 {
		w, h := LevelSize(o.Width, o.Height, ds)
		s := imageSpec{ds: ds, w: w, h: h, tile: o.TileSize, comp: o.Compression}
		if ds > 1 {
			s.subfile = 1
		}
		if ds == 1 && o.Striped {
			s.tile, s.rps = 0, 64
		}
		specs = append(specs, s)
		if w <= minSide && h <= minSide {
			break
		}
	}
	pxPerCm := 10000 / o.MPP
	specs[0].extra = []field{
		{tag: 282, typ: 5, r: pxPerCm}, {tag: 283, typ: 5, r: pxPerCm}, {tag: 296, typ: 3, u: []uint64{3}},
		{tag: 305, typ: 2, b: []byte("telepath slidegen")},
	}
	return write(path, o, specs, o.SubIFDs)
}

// WriteSVS writes an Aperio-like SVS: level 0 and levels downsampled by 4,
// a stripped JPEG thumbnail (second IFD), an LZW label and a JPEG macro,
// with RGB-photometric JPEG tiles and an Aperio ImageDescription.
func WriteSVS(path string, o Options) error {
	o.defaults(240)
	o.Compression = "jpeg"
	minSide := o.MinLevelSize
	if minSide <= 0 {
		minSide = 1024
	}
	header := fmt.Sprintf("Aperio Image Library v12.0.15 \r\n%dx%d [0,0 %dx%d] (%dx%d) JPEG/RGB Q=%d",
		o.Width, o.Height, o.Width, o.Height, o.TileSize, o.TileSize, o.Quality)
	desc := header + fmt.Sprintf("|AppMag = 40|StripeWidth = 1000|ScanScope ID = SS1234|Filename = synthetic|Date = 03/14/24|Time = 10:20:30|Time Zone = GMT+0100|MPP = %.4f|Left = 25.0|Top = 20.0", o.MPP)
	specs := []imageSpec{{ds: 1, w: o.Width, h: o.Height, tile: o.TileSize, comp: "jpeg", rgb: true, description: desc}}
	// Thumbnail: about 1024 px on the long side.
	tds := max(1, max(o.Width, o.Height)/1024)
	tw, th := LevelSize(o.Width, o.Height, tds)
	specs = append(specs, imageSpec{ds: tds, w: tw, h: th, rps: th, comp: "jpeg",
		description: header + fmt.Sprintf(" -> %dx%d - |AppMag = 40|MPP = %.4f", tw, th, o.MPP)})
	for ds := 4; ; ds *= 4 {
		w, h := LevelSize(o.Width, o.Height, ds)
		specs = append(specs, imageSpec{ds: ds, w: w, h: h, tile: o.TileSize, comp: "jpeg", rgb: true,
			description: header + fmt.Sprintf(" -> %dx%d - |AppMag = 40|MPP = %.4f", w, h, o.MPP)})
		if w <= minSide && h <= minSide {
			break
		}
	}
	// Label and macro are 400×380 and 1200×400 for slides of real size,
	// smaller for tiny test slides.
	lw := min(400, max(40, o.Width/5))
	lh, mw := lw*19/20, lw*3
	specs = append(specs,
		imageSpec{ds: -1, w: lw, h: lh, rps: 16, comp: "lzw", subfile: 1, description: fmt.Sprintf("Aperio Image Library v12.0.15\r\nlabel %dx%d", lw, lh)},
		imageSpec{ds: -2, w: mw, h: lw, rps: lw, comp: "jpeg", subfile: 9, description: fmt.Sprintf("Aperio Image Library v12.0.15\r\nmacro %dx%d", mw, lw)},
	)
	return write(path, o, specs, false)
}

func write(path string, o Options, specs []imageSpec, subIFDs bool) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	tw, err := newTIFFWriter(f, o.BigTIFF, o.BigEndian)
	if err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	wr := &writer{o: o, tex: Texture{Seed: o.Seed}, tw: tw}
	for i, s := range specs {
		spec, err := wr.image(s)
		if err != nil {
			return fmt.Errorf("slidegen: image %d: %w", i, err)
		}
		spec.inMain = !subIFDs || i == 0
		tw.ifds = append(tw.ifds, spec)
	}
	if subIFDs && len(specs) > 1 {
		var subs []int
		for i := 1; i < len(specs); i++ {
			subs = append(subs, i)
		}
		tw.ifds[0].fields = append(tw.ifds[0].fields, field{tag: 330, typ: 4, subs: subs})
		sortFields(tw.ifds[0].fields)
	}
	if err := tw.finish(); err != nil {
		return fmt.Errorf("slidegen: %w", err)
	}
	return nil
}

// content renders the pixels of rect r of an image spec, padding outside
// the image with black as many writers do for edge tiles.
func (wr *writer) content(s imageSpec, r image.Rectangle) *image.RGBA {
	var img *image.RGBA
	switch s.ds {
	case -1:
		img = labelImage(r)
	case -2:
		img = macroImage(wr.tex, r)
	default:
		img = wr.tex.Render(r.Intersect(image.Rect(0, 0, s.w, s.h)), s.ds)
	}
	if img.Bounds() == r {
		return img
	}
	full := image.NewRGBA(r)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		copy(full.Pix[full.PixOffset(img.Rect.Min.X, y):], img.Pix[img.PixOffset(img.Rect.Min.X, y):img.PixOffset(img.Rect.Max.X, y)])
	}
	for i := 3; i < len(full.Pix); i += 4 {
		full.Pix[i] = 255
	}
	return full
}

// image encodes every chunk of s (in parallel) and returns its IFD fields.
func (wr *writer) image(s imageSpec) (*ifdSpec, error) {
	cw, ch := s.tile, s.tile
	if s.tile == 0 {
		cw, ch = s.w, s.rps
	}
	cols, rows := (s.w+cw-1)/cw, (s.h+ch-1)/ch
	n := cols * rows
	chunks := make([][]byte, n)
	var tables []byte
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := image.Rect((i%cols)*cw, (i/cols)*ch, (i%cols+1)*cw, (i/cols+1)*ch)
				if s.tile == 0 {
					r = r.Intersect(image.Rect(0, 0, s.w, s.h)) // strips are not padded
				}
				img := wr.content(s, r)
				var out, tb []byte
				var err error
				switch s.comp {
				case "jpeg":
					tb, out, err = encodeJPEG(img, wr.o.Quality, s.rgb)
				case "lzw":
					out = lzwEncode(samples(img, wr.o.Predictor))
				case "deflate":
					out = deflate(samples(img, wr.o.Predictor))
				default:
					out = samples(img, false)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if tb != nil && tables == nil {
					tables = tb
				}
				chunks[i] = out
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	offs := make([]uint64, n)
	counts := make([]uint64, n)
	for i, c := range chunks {
		off, err := wr.tw.data(c)
		if err != nil {
			return nil, err
		}
		offs[i], counts[i] = uint64(off), uint64(len(c))
	}
	photometric := uint64(2)
	if s.comp == "jpeg" && !s.rgb {
		photometric = 6
	}
	ot := wr.tw.offsetType()
	fs := []field{
		{tag: 254, typ: 4, u: []uint64{s.subfile}},
		{tag: 256, typ: 4, u: []uint64{uint64(s.w)}},
		{tag: 257, typ: 4, u: []uint64{uint64(s.h)}},
		{tag: 258, typ: 3, u: []uint64{8, 8, 8}},
		{tag: 259, typ: 3, u: []uint64{compCode[s.comp]}},
		{tag: 262, typ: 3, u: []uint64{photometric}},
		{tag: 277, typ: 3, u: []uint64{3}},
		{tag: 284, typ: 3, u: []uint64{1}},
	}
	if s.description != "" {
		fs = append(fs, field{tag: 270, typ: 2, b: []byte(s.description)})
	}
	if s.tile > 0 {
		fs = append(fs,
			field{tag: 322, typ: 4, u: []uint64{uint64(s.tile)}},
			field{tag: 323, typ: 4, u: []uint64{uint64(s.tile)}},
			field{tag: 324, typ: ot, u: offs},
			field{tag: 325, typ: ot, u: counts})
	} else {
		fs = append(fs,
			field{tag: 273, typ: ot, u: offs},
			field{tag: 278, typ: 4, u: []uint64{uint64(s.rps)}},
			field{tag: 279, typ: ot, u: counts})
	}
	if wr.o.Predictor && (s.comp == "lzw" || s.comp == "deflate") {
		fs = append(fs, field{tag: 317, typ: 3, u: []uint64{2}})
	}
	if tables != nil {
		fs = append(fs, field{tag: 347, typ: 7, b: tables})
	}
	if s.comp == "jpeg" && !s.rgb {
		fs = append(fs, field{tag: 530, typ: 3, u: []uint64{2, 2}}) // YCbCrSubSampling
	}
	fs = append(fs, s.extra...)
	sortFields(fs)
	return &ifdSpec{fields: fs}, nil
}

func sortFields(fs []field) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].tag < fs[j-1].tag; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}
