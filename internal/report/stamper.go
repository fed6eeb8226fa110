package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"telepath/internal/platform/apperr"
)

// ErrStampTooCostly: stamping the PDF took longer than the Stamper allows
// or more memory than its child may have (a crafted file can make the
// reader spin without reading, or build objects without end).
var ErrStampTooCostly = errors.New("report: the PDF takes too long or too much memory to stamp")

// DefaultStampTimeout is how much CPU time a Stamper lets a PDF of up to
// 1 MB take; each further MB adds a twentieth of it. An ordinary file takes
// well under it: 36 pages, 0.4 to 1.5 s. The wall-clock limit is
// stampWallFactor times it: on a loaded machine an ordinary file waits
// long for the processor (36 pages: 30 to 50 s at a load of 35 on two
// cores) but a spinning one still uses up its CPU time.
const DefaultStampTimeout = 20 * time.Second

// stampWallFactor: a child is killed after this many times its CPU time
// of wall-clock time, whatever it used.
const stampWallFactor = 3

// stampMemory bounds a stamping child's address space (RLIMIT_AS, where
// there is one); the Go runtime and the reader's copy of a 32 MB file's
// objects fit in well under it.
const stampMemory = 2 << 30

// stampSlots is how many PDFs are stamped at once, each in its own child.
const stampSlots = 2

// Stamper stamps PDFs (stamp) in a child process: this program started
// again (childEnv set, see init), the PDF and the watermark on its stdin,
// the stamped copy on its stdout. The child runs on one processor and is
// killed when it has used its CPU time (by the kernel), when its
// wall-clock time runs out, when ctx ends (the client went away) or when
// this process dies; it may use stampMemory of memory. A few children run
// at once; the others wait their turn.
type Stamper struct {
	timeout time.Duration
	slots   chan struct{}
}

// NewStamper returns a Stamper that gives a PDF of up to 1 MB timeout of
// CPU time (0: DefaultStampTimeout), and each further MB a twentieth of it
// more; stampWallFactor times that of wall-clock time.
func NewStamper(timeout time.Duration) *Stamper {
	if timeout <= 0 {
		timeout = DefaultStampTimeout
	}
	return &Stamper{timeout: timeout, slots: make(chan struct{}, stampSlots)}
}

// Stamp returns a copy of the PDF src with wm's text tiled over every page
// (see stamp), made in a child process. A file that cannot be stamped is
// ErrUnreadablePDF, ErrEncryptedPDF or ErrTooManyPages as with stamp, one
// whose stamping runs out of time or memory ErrStampTooCostly. When ctx
// ends first, its error is returned. src is not changed.
func (s *Stamper) Stamp(ctx context.Context, src []byte, wm Watermark) ([]byte, error) {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	limit := s.timeout + s.timeout/20*time.Duration(len(src)>>20)
	run, cancel := context.WithTimeout(ctx, stampWallFactor*limit)
	defer cancel()
	head, err := json.Marshal(wm)
	if err != nil {
		return nil, apperr.Wrap(err, "report: stamp header")
	}
	cmd := exec.CommandContext(run, self(), "stamp-pdf")
	cmd.Env = []string{childEnv + "=" + strconv.Itoa(stampMemory) + " " + strconv.Itoa(int((limit+time.Second-1)/time.Second)), "GOMAXPROCS=1"}
	cmd.Stdin = io.MultiReader(bytes.NewReader(head), strings.NewReader("\n"), bytes.NewReader(src))
	var out bytes.Buffer
	stderr := &tail{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = &out, stderr
	cmd.SysProcAttr = childAttr()
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case run.Err() != nil:
		return nil, ErrStampTooCostly
	case !errors.As(err, &exit):
		return nil, apperr.Wrap(err, "report: start the stamping child")
	}
	switch exit.ExitCode() {
	case exitUnreadable:
		return nil, ErrUnreadablePDF
	case exitEncrypted:
		return nil, ErrEncryptedPDF
	case exitTooManyPages:
		return nil, ErrTooManyPages
	case exitFailed:
		return nil, apperr.Wrap(fmt.Errorf("%s", stderr), "report: stamping child")
	}
	// Killed at its CPU limit or died in the runtime: out of memory, a
	// stack grown past its limit by the reader's recursion.
	return nil, ErrStampTooCostly
}

// self is the path that starts this program again: the running binary
// itself where the system names it (so a binary replaced on disk since
// does not answer), else its path.
func self() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}

// The stamping child: childEnv holds its memory limit in bytes and its
// CPU time in seconds. It exits 0 with the stamped PDF on stdout, or with
// one of these codes (2 is the Go runtime's own: a panic, out of memory).
const (
	childEnv         = "TELEPATH_STAMP_PDF_CHILD"
	exitFailed       = 1
	exitUnreadable   = 3
	exitEncrypted    = 4
	exitTooManyPages = 5
)

// A process started with childEnv set is a stamping child, whatever
// program imports this package (the server, a test binary): it stamps
// and exits before main runs.
func init() {
	if v, ok := os.LookupEnv(childEnv); ok {
		os.Exit(stampChild(v, os.Stdin, os.Stdout, os.Stderr))
	}
}

func stampChild(limits string, in io.Reader, out, errs io.Writer) int {
	var mem, cpu uint64
	if _, err := fmt.Sscan(limits, &mem, &cpu); err != nil {
		fmt.Fprintln(errs, "stamp-pdf: bad limits:", limits)
		return exitFailed
	}
	if err := limitSelf(mem, cpu); err != nil {
		fmt.Fprintln(errs, "stamp-pdf: limits:", err)
		return exitFailed
	}
	// The collector works harder well before the hard limit.
	debug.SetMemoryLimit(int64(mem / 2))
	b, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintln(errs, "stamp-pdf: read:", err)
		return exitFailed
	}
	head, src, _ := bytes.Cut(b, []byte("\n"))
	var wm Watermark
	if err := json.Unmarshal(head, &wm); err != nil {
		fmt.Fprintln(errs, "stamp-pdf: watermark:", err)
		return exitFailed
	}
	pdf, err := stamp(src, wm)
	switch {
	case errors.Is(err, ErrUnreadablePDF):
		return exitUnreadable
	case errors.Is(err, ErrEncryptedPDF):
		return exitEncrypted
	case errors.Is(err, ErrTooManyPages):
		return exitTooManyPages
	case err != nil:
		fmt.Fprintln(errs, "stamp-pdf:", err)
		return exitFailed
	}
	if _, err := out.Write(pdf); err != nil {
		fmt.Fprintln(errs, "stamp-pdf: write:", err)
		return exitFailed
	}
	return 0
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string { return strings.TrimSpace(string(t.b)) }
