// Command slidegen writes a synthetic whole-slide image for demos and
// benchmarks: a pyramidal TIFF or, with a .svs name, an Aperio-like SVS.
//
//	go run ./internal/slide/slidegen/cmd/slidegen -o out.svs -w 20000 -h 15000
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"telepath/internal/slide/slidegen"
)

func main() {
	out := flag.String("o", "slide.tif", "output file; a .svs name writes an Aperio-like SVS")
	w := flag.Int("w", 8000, "level-0 width in pixels")
	h := flag.Int("h", 6000, "level-0 height in pixels")
	tile := flag.Int("tile", 0, "tile size (default 256, SVS 240)")
	comp := flag.String("compression", "jpeg", "jpeg, lzw, deflate or none (TIFF only)")
	q := flag.Int("q", 90, "JPEG quality")
	big := flag.Bool("bigtiff", false, "write BigTIFF")
	seed := flag.Int64("seed", 0, "texture seed")
	flag.Parse()
	o := slidegen.Options{Width: *w, Height: *h, TileSize: *tile, Compression: *comp, Quality: *q, BigTIFF: *big, Seed: *seed}
	var err error
	if strings.HasSuffix(strings.ToLower(*out), ".svs") {
		err = slidegen.WriteSVS(*out, o)
	} else {
		err = slidegen.WriteTIFF(*out, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
