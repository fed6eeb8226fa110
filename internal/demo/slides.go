package demo

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
	"telepath/internal/slide/slidegen"
)

// demoSlideSize keeps the first start quick while giving a real pyramid.
const demoSlideW, demoSlideH = 4000, 3000

// FileSlides returns a SlideMaker that stores a generated SVS slide (made
// once in dataDir/demo, then hard-linked) as an uploaded, viewable slide.
func FileSlides(d *db.DB, dataDir string, clk clock.Clock) SlideMaker {
	return func(ctx context.Context, hospitalID, ownerID int64, name string) (int64, error) {
		src, err := baseSlide(dataDir, hospitalID%2)
		if err != nil {
			return 0, err
		}
		rel := filepath.Join("demo", randomHex()+".svs")
		dst := filepath.Join(dataDir, "files", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
			return 0, err
		}
		if err := os.Link(src, dst); err != nil {
			if err := copyFile(src, dst); err != nil {
				return 0, err
			}
		}
		fi, err := os.Stat(dst)
		if err != nil {
			return 0, err
		}
		sum, err := fileSHA256(dst)
		if err != nil {
			return 0, err
		}
		now := clk.Now()
		var id int64
		err = d.InTx(ctx, func(tx *db.Tx) error {
			fileID, err := db.InsertID(ctx, tx, tx.Builder().Insert("files").
				Columns("kind", "owner_id", "hospital_id", "filename", "path", "size", "sha256", "content_type", "created_at").
				Values("slide", ownerID, hospitalID, name, rel, fi.Size(), sum, "image/tiff", now))
			if err != nil {
				return err
			}
			id, err = db.InsertID(ctx, tx, tx.Builder().Insert("slides").
				Columns("file_id", "owner_id", "hospital_id", "filename", "filesize", "sha256", "status", "format", "viewable",
					"width", "height", "mpp", "objective", "created_at", "updated_at").
				Values(fileID, ownerID, hospitalID, name, fi.Size(), sum, 1, "svs", 1, demoSlideW, demoSlideH, 0.25, 40.0, now, now))
			return err
		})
		return id, err
	}
}

// baseSlide makes (once) one of two demo slides with different textures.
func baseSlide(dataDir string, variant int64) (string, error) {
	path := filepath.Join(dataDir, "demo", fmt.Sprintf("demo-%d.svs", variant))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return "", err
	}
	tmp := path + ".tmp"
	if err := slidegen.WriteSVS(tmp, slidegen.Options{Width: demoSlideW, Height: demoSlideH, Seed: 7 + variant, MPP: 0.25}); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func randomHex() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
