package slide

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// tiffProperties extracts metadata from the first IFD: the Aperio
// description fields for SVS, resolution tags and DateTime otherwise.
func tiffProperties(format string, d *ifd) Properties {
	p := Properties{Vendor: "generic-tiff", Description: d.description, Raw: map[string]string{}}
	set := func(k, v string) {
		if v != "" {
			p.Raw[k] = v
		}
	}
	set("tiff.ImageDescription", d.description)
	set("tiff.Make", d.make)
	set("tiff.Model", d.model)
	set("tiff.Software", d.software)
	set("tiff.DateTime", d.datetime)
	if format == "svs" {
		p.Vendor = "aperio"
		aperioProperties(&p, d.description)
	} else {
		if t, err := time.Parse("2006:01:02 15:04:05", d.datetime); err == nil {
			p.ScanDate = t
		}
	}
	if p.MPPX == 0 {
		p.MPPX, p.MPPY = resolutionMPP(d.xres, d.resUnit), resolutionMPP(d.yres, d.resUnit)
		if p.MPPX == 0 || p.MPPY == 0 {
			p.MPPX, p.MPPY = 0, 0
		}
	}
	if p.MPPX > 0 {
		set("mpp-x", strconv.FormatFloat(p.MPPX, 'f', -1, 64))
		set("mpp-y", strconv.FormatFloat(p.MPPY, 'f', -1, 64))
	}
	return p
}

// resolutionMPP converts a TIFF resolution to microns per pixel. Values
// outside what a microscope produces (e.g. the 72 dpi default) are ignored.
func resolutionMPP(res float64, unit int) float64 {
	if res <= 0 {
		return 0
	}
	var mpp float64
	switch unit {
	case 2: // inch
		mpp = 25400 / res
	case 3: // centimeter
		mpp = 10000 / res
	default:
		return 0
	}
	if mpp < 0.01 || mpp > 100 {
		return 0
	}
	return mpp
}

// aperioProperties parses "Aperio Image Library v…|AppMag = 40|MPP = 0.25|Date = 12/29/09|Time = 09:59:15|…".
func aperioProperties(p *Properties, desc string) {
	parts := strings.Split(desc, "|")
	if len(parts) > 0 {
		p.Raw["aperio.Header"] = strings.TrimSpace(parts[0])
	}
	kv := map[string]string{}
	for _, part := range parts[1:] {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		kv[k] = v
		p.Raw["aperio."+k] = v
	}
	if f, err := strconv.ParseFloat(kv["MPP"], 64); err == nil && f > 0 && f < 100 {
		p.MPPX, p.MPPY = f, f
	}
	if f, err := strconv.ParseFloat(kv["AppMag"], 64); err == nil && f > 0 && f < 1000 {
		p.Objective = f
	}
	if d := kv["Date"]; d != "" {
		ts := d + " " + kv["Time"]
		for _, layout := range []string{"01/02/06 15:04:05", "01/02/06 ", "01/02/2006 15:04:05", "01/02/2006 "} {
			if t, err := time.Parse(layout, ts); err == nil {
				p.ScanDate = t
				break
			}
		}
	}
	if tz := kv["Time Zone"]; tz != "" && !p.ScanDate.IsZero() {
		// "GMT+0100" or "GMT-05:00"
		s := strings.ReplaceAll(strings.TrimPrefix(tz, "GMT"), ":", "")
		if len(s) == 5 {
			if h, err := strconv.Atoi(s[1:3]); err == nil {
				if m, err := strconv.Atoi(s[3:5]); err == nil {
					off := (h*60 + m) * 60
					if s[0] == '-' {
						off = -off
					}
					t := p.ScanDate
					p.ScanDate = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.FixedZone(fmt.Sprintf("GMT%s", s), off))
				}
			}
		}
	}
}
