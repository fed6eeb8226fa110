package upload

import (
	"os"
	"syscall"
)

// Disk is the space of the file system holding the data directory.
type Disk struct {
	Total       int64   `json:"total" doc:"Bytes"`
	Free        int64   `json:"free" doc:"Bytes available to Telepath"`
	Used        int64   `json:"used" doc:"Bytes"`
	UsedPercent float64 `json:"used_percent"`
	Reserved    int64   `json:"reserved" doc:"Bytes promised to uploads in progress (declared, not yet received)"`
	MinFree     int64   `json:"min_free" doc:"Uploads are refused when they would leave less than this free, reservations counted"`
	WarnBelow   int64   `json:"warn_below" doc:"Bytes: the low disk space warning shows below this much free space (system config disk_space, in GB), or below min_free"`
	Warn        bool    `json:"warn" doc:"Free space less reservations is below warn_below or min_free: show the low disk space warning"`
}

// DiskSpace measures the data directory's file system.
func (s *Service) DiskSpace() (Disk, error) {
	os.MkdirAll(s.opt.DataDir, 0o750) //nolint:errcheck
	var st syscall.Statfs_t
	if err := syscall.Statfs(s.opt.DataDir, &st); err != nil {
		return Disk{}, err
	}
	bs := int64(st.Bsize)
	d := Disk{Total: int64(st.Blocks) * bs, Free: int64(st.Bavail) * bs}
	d.Used = d.Total - int64(st.Bfree)*bs
	if d.Total > 0 {
		d.UsedPercent = float64(int64(float64(d.Used)/float64(d.Total)*10000)) / 100
	}
	d.MinFree = s.minFree(d.Total)
	d.Warn = d.Free < d.MinFree
	return d, nil
}

// minFree is the threshold: the larger of the fixed amount and the share
// of the disk, the share counting at most 50 GB on very large disks (a
// negative MinFreeBytes turns the check off).
func (s *Service) minFree(total int64) int64 {
	if s.opt.MinFreeBytes < 0 {
		return 0
	}
	return max(s.opt.MinFreeBytes, min(int64(float64(total)*s.opt.MinFreeRatio), 50<<30))
}
