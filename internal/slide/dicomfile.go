package slide

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// DICOM attributes the reader uses.
const (
	dcmImageType        = 0x00080008
	dcmSOPClass         = 0x00080016
	dcmStudyDate        = 0x00080020
	dcmAcqDateTime      = 0x0008002A
	dcmStudyTime        = 0x00080030
	dcmManufacturer     = 0x00080070
	dcmModelName        = 0x00081090
	dcmSeriesUID        = 0x0020000E
	dcmDimOrgType       = 0x00209311
	dcmSamples          = 0x00280002
	dcmPhotometric      = 0x00280004
	dcmPlanar           = 0x00280006
	dcmFrames           = 0x00280008
	dcmRows             = 0x00280010
	dcmColumns          = 0x00280011
	dcmPixelSpacing     = 0x00280030
	dcmBitsAllocated    = 0x00280100
	dcmTotalColumns     = 0x00480006
	dcmTotalRows        = 0x00480007
	dcmObjectivePower   = 0x00480112
	dcmColumnPosition   = 0x0048021E
	dcmRowPosition      = 0x0048021F
	dcmSharedGroups     = 0x52009229
	dcmPerFrameGroups   = 0x52009230
	dcmPixelMeasures    = 0x00289110
	dcmPlanePosition    = 0x0048021A
	dcmOpticalPath      = 0x00480105
	sopWholeSlide       = "1.2.840.10008.5.1.4.1.1.77.1.6"
	tsImplicitLE        = "1.2.840.10008.1.2"
	tsExplicitLE        = "1.2.840.10008.1.2.1"
	tsJPEGBaseline      = "1.2.840.10008.1.2.4.50"
	tsJPEGExtended      = "1.2.840.10008.1.2.4.51"
	maxDICOMFiles       = 1024
	maxDICOMSparseFrame = 1 << 20
)

// dcmInstance is one parsed instance file of a WSI series.
type dcmInstance struct {
	path        string
	f           *os.File // nil when parsed from a reader
	r           io.ReaderAt
	size        int64
	top         map[uint32]string // top-level string values
	imageType   string
	series      string
	transfer    string
	tileW       int
	tileH       int
	width       int
	height      int
	frames      int
	spp         int
	photometric string
	sparse      bool
	positions   [][2]int32 // per frame (TILED_SPARSE): 1-based column, row
	mppX, mppY  float64
	objective   float64
	frameOff    []int64 // byte range of each frame's single fragment, or
	frameLen    []int64 // of the whole frame for native pixel data
	frameFrags  [][]int64
	encapsuled  bool
}

func atoiDICOM(s string) int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// readDICOMInstance parses the header of one file; f stays open on success.
func readDICOMInstance(path string) (*dcmInstance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	in, err := parseDICOMInstance(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	in.path, in.f, in.r = path, f, f
	return in, nil
}

func parseDICOMInstance(r io.ReaderAt, size int64) (*dcmInstance, error) {
	in := &dcmInstance{r: r, size: size, top: map[uint32]string{}}
	frame := -1
	v := dcmVisitor{
		want: func(path []uint32, tag uint32) bool {
			switch len(path) {
			case 0:
				return true
			case 1:
				return path[0] == dcmOpticalPath && tag == dcmObjectivePower
			case 2:
				return path[0] == dcmSharedGroups && path[1] == dcmPixelMeasures && tag == dcmPixelSpacing ||
					path[0] == dcmPerFrameGroups && path[1] == dcmPlanePosition && (tag == dcmColumnPosition || tag == dcmRowPosition)
			}
			return false
		},
		item: func(path []uint32) {
			if len(path) == 1 && path[0] == dcmPerFrameGroups {
				frame++
			}
		},
		value: func(path []uint32, tag uint32, val []byte) {
			switch {
			case len(path) == 0:
				in.top[tag] = dcmString(tag, val)
			case tag == dcmObjectivePower && in.objective == 0:
				in.objective, _ = strconv.ParseFloat(trimDICOM(val), 64)
			case tag == dcmPixelSpacing && path[0] == dcmSharedGroups:
				parts := strings.Split(trimDICOM(val), "\\")
				if len(parts) == 2 {
					row, _ := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
					col, _ := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
					in.mppY, in.mppX = row*1000, col*1000
				}
			case (tag == dcmColumnPosition || tag == dcmRowPosition) && frame >= 0 && frame < maxDICOMSparseFrame:
				for len(in.positions) <= frame {
					in.positions = append(in.positions, [2]int32{})
				}
				if len(val) >= 4 {
					k := 0
					if tag == dcmRowPosition {
						k = 1
					}
					in.positions[frame][k] = int32(binary.LittleEndian.Uint32(val))
				}
			}
		},
	}
	p, err := parseDICOM(r, size, v)
	if err != nil {
		return nil, err
	}
	t := in.top
	in.transfer = p.transferSyn
	in.imageType = strings.ToUpper(t[dcmImageType])
	in.series = t[dcmSeriesUID]
	in.tileW, in.tileH = atoiDICOM(t[dcmColumns]), atoiDICOM(t[dcmRows])
	in.width, in.height = atoiDICOM(t[dcmTotalColumns]), atoiDICOM(t[dcmTotalRows])
	if in.width == 0 || in.height == 0 { // label and overview images are not tiled
		in.width, in.height = in.tileW, in.tileH
	}
	in.frames = max(1, atoiDICOM(t[dcmFrames]))
	in.spp = atoiDICOM(t[dcmSamples])
	in.photometric = t[dcmPhotometric]
	in.sparse = t[dcmDimOrgType] == "TILED_SPARSE"
	if t[dcmSOPClass] != sopWholeSlide {
		return nil, unsupported("dicom", fmt.Sprintf("SOP class %s is not VL Whole Slide Microscopy", t[dcmSOPClass]))
	}
	if !p.pixelFound {
		return nil, fmt.Errorf("%w: no pixel data", errDICOM)
	}
	if in.tileW <= 0 || in.tileH <= 0 || in.tileW > maxTileDimension || in.tileH > maxTileDimension ||
		in.width > maxDimension || in.height > maxDimension || in.tileW*in.tileH > maxChunkPixels {
		return nil, fmt.Errorf("%w: bad image size", errDICOM)
	}
	if in.frames > maxChunks {
		return nil, fmt.Errorf("%w: %d frames", errDICOM, in.frames)
	}
	switch in.transfer {
	case tsJPEGBaseline, tsJPEGExtended:
		in.encapsuled = true
		if in.spp != 1 && in.spp != 3 {
			return nil, unsupported("dicom", fmt.Sprintf("%d samples per pixel", in.spp))
		}
		err = in.scanFragments(r, p.pixelPos, p.pixelLen)
	case tsImplicitLE, tsExplicitLE:
		err = in.nativeFrames(p.pixelPos, p.pixelLen, t[dcmBitsAllocated], t[dcmPlanar])
	default:
		return nil, unsupported("dicom", "transfer syntax "+in.transfer)
	}
	if err != nil {
		return nil, err
	}
	return in, nil
}

// dcmString decodes a value as text, or US/UL numbers as decimal text.
func dcmString(tag uint32, val []byte) string {
	switch tag {
	case dcmSamples, dcmRows, dcmColumns, dcmBitsAllocated, dcmPlanar:
		if len(val) >= 2 {
			return strconv.Itoa(int(binary.LittleEndian.Uint16(val)))
		}
	case dcmTotalColumns, dcmTotalRows:
		if len(val) >= 4 {
			return strconv.Itoa(int(binary.LittleEndian.Uint32(val)))
		}
	}
	return trimDICOM(val)
}
