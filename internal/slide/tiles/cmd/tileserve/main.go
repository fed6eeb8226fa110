// Command tileserve serves one slide as Deep Zoom and IIIF over plain HTTP,
// without authentication. It exists to measure the tile service with the
// benchmark harness (bench/tiles); the product serves tiles through its API.
//
//	go run ./internal/slide/tiles/cmd/tileserve -listen 127.0.0.1:8080 slide.tif
//	# DZI: http://127.0.0.1:8080/slide.dzi   IIIF: http://127.0.0.1:8080/iiif/info.json
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"strings"

	"telepath/internal/slide/tiles"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8080", "address")
	cacheMB := flag.Int64("cache-mb", 256, "memory cache")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: tileserve [-listen addr] SLIDE")
	}
	path := flag.Arg(0)
	svc, err := tiles.New(tiles.Options{MemoryCacheBytes: *cacheMB << 20})
	if err != nil {
		log.Fatal(err)
	}
	if _, release, err := svc.Acquire(path); err != nil {
		log.Fatal(err)
	} else {
		release()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /slide.dzi", func(w http.ResponseWriter, r *http.Request) {
		src, release, err := svc.Acquire(path)
		if err != nil {
			fail(w, err)
			return
		}
		defer release()
		w.Header().Set("Content-Type", "application/xml")
		w.Write(svc.DZI(src))
	})
	mux.HandleFunc("GET /slide_files/{level}/{tile}", func(w http.ResponseWriter, r *http.Request) {
		L, err1 := strconv.Atoi(r.PathValue("level"))
		c, rr, ok := strings.Cut(strings.TrimSuffix(r.PathValue("tile"), ".jpeg"), "_")
		col, err2 := strconv.Atoi(c)
		row, err3 := strconv.Atoi(rr)
		if err1 != nil || err2 != nil || err3 != nil || !ok {
			http.NotFound(w, r)
			return
		}
		src, release, err := svc.Acquire(path)
		if err != nil {
			fail(w, err)
			return
		}
		defer release()
		err = svc.WriteTile(r.Context(), src, L, col, row, func(b []byte, tag string) error {
			send(w, r, b, "image/jpeg", tag, nil)
			return nil
		})
		if err != nil {
			fail(w, err)
		}
	})
	mux.HandleFunc("GET /iiif/info.json", func(w http.ResponseWriter, r *http.Request) {
		src, release, err := svc.Acquire(path)
		if err != nil {
			fail(w, err)
			return
		}
		defer release()
		w.Header().Set("Content-Type", "application/ld+json")
		w.Write(svc.InfoJSON(src, "http://"+r.Host+"/iiif"))
	})
	mux.HandleFunc("GET /iiif/{region}/{size}/{rotation}/{file}", func(w http.ResponseWriter, r *http.Request) {
		quality, format, _ := strings.Cut(r.PathValue("file"), ".")
		src, release, err := svc.Acquire(path)
		if err != nil {
			fail(w, err)
			return
		}
		defer release()
		b, ct, tag, err := svc.IIIF(r.Context(), src, r.PathValue("region"), r.PathValue("size"), r.PathValue("rotation"), quality, format)
		send(w, r, b, ct, tag, err)
	})
	log.Printf("serving %s on http://%s/slide.dzi", path, *listen)
	log.Fatal(http.ListenAndServe(*listen, mux))
}

func send(w http.ResponseWriter, r *http.Request, b []byte, ct, tag string, err error) {
	if err != nil {
		fail(w, err)
		return
	}
	h := w.Header()
	h["Etag"] = []string{tag}
	if r.Header.Get("If-None-Match") == tag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Type"] = []string{ct}
	h["Cache-Control"] = []string{"private, max-age=31536000, immutable"}
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.Write(b)
}

func fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, tiles.ErrNotFound):
		http.Error(w, err.Error(), http.StatusNotFound)
	case errors.Is(err, tiles.ErrBadRequest):
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		http.Error(w, fmt.Sprint("tile error: ", err), http.StatusInternalServerError)
	}
}
