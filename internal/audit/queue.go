package audit

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"telepath/internal/platform/db"
)

// The queue of read records: a request hands its row over and goes on; one
// goroutine writes the rows in batches and seals the chain. Rows are never
// dropped: when the queue is full the request writes its row itself, a batch
// that fails is kept and tried again, and what cannot be written at all is
// logged in full at ERROR and counted (telepath_audit_rows_lost_total).
const (
	queueSize   = 8192
	batchSize   = 500
	interval    = 500 * time.Millisecond
	maxBacklog  = 100_000 // rows kept in memory while the database refuses them
	syncTimeout = 5 * time.Second
)

var (
	rowsWritten = promauto.NewCounter(prometheus.CounterOpts{Name: "telepath_audit_reads_written_total", Help: "Read records written to the operation log."})
	rowsDirect  = promauto.NewCounter(prometheus.CounterOpts{Name: "telepath_audit_reads_direct_total", Help: "Read records the request wrote itself because the queue was full."})
	rowsLost    = promauto.NewCounter(prometheus.CounterOpts{Name: "telepath_audit_rows_lost_total", Help: "Audit records that could not be written (each is logged at ERROR)."})
)

type queue struct {
	db      *db.DB
	in      chan record
	flushes chan chan error
	done    chan struct{}
	mu      sync.RWMutex // guards closed against sends on a closed channel
	closed  bool
}

// Start begins writing queued reads and sealing the chain in the
// background, until Close.
func (l *Log) Start() { l.start(queueSize) }

func (l *Log) start(size int) {
	q := &queue{db: l.DB, in: make(chan record, size), flushes: make(chan chan error), done: make(chan struct{})}
	l.q = q
	go q.run()
}

// Flush writes every queued read and seals the chain now.
func (l *Log) Flush(ctx context.Context) error {
	if l.q == nil {
		_, err := Seal(ctx, l.DB)
		return err
	}
	reply := make(chan error, 1)
	select {
	case l.q.flushes <- reply:
	case <-l.q.done:
		return errors.New("audit: log closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close writes what is queued, seals the chain and stops; reads recorded
// afterwards are written directly.
func (l *Log) Close(ctx context.Context) error {
	q := l.q
	if q == nil {
		return nil
	}
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.in)
	}
	q.mu.Unlock()
	select {
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (q *queue) add(r record) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if !q.closed {
		select {
		case q.in <- r:
			return
		default: // full: the database is slow or down; this request waits for its own row
			rowsDirect.Inc()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), syncTimeout)
	defer cancel()
	if err := insert(ctx, q.db, q.db.Dialect, []record{r}); err != nil {
		lost(r, err)
	}
}

func (q *queue) run() {
	defer close(q.done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var backlog []record
	for {
		select {
		case r, ok := <-q.in:
			if !ok {
				q.final(backlog)
				return
			}
			backlog = append(backlog, r)
			if len(backlog) >= batchSize {
				backlog, _ = q.write(backlog)
			}
		case <-tick.C:
			backlog, _ = q.write(backlog)
		case reply := <-q.flushes:
			backlog = append(backlog, q.drain()...)
			var err error
			backlog, err = q.write(backlog)
			reply <- err
		}
	}
}

// drain takes what is waiting in the queue without blocking.
func (q *queue) drain() []record {
	var out []record
	for {
		select {
		case r, ok := <-q.in:
			if !ok {
				return out
			}
			out = append(out, r)
		default:
			return out
		}
	}
}

// write stores rs in batches and seals the chain; it returns the rows it
// could not write yet (kept for the next round, up to maxBacklog).
func (q *queue) write(rs []record) ([]record, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for len(rs) > 0 {
		n := min(len(rs), batchSize)
		err := q.db.InTx(ctx, func(tx *db.Tx) error {
			if err := insert(ctx, tx, tx.Dialect, rs[:n]); err != nil {
				return err
			}
			_, err := sealIn(ctx, tx, batchSize)
			return err
		})
		if err != nil {
			slog.Error("audit: writing read records failed; will retry", "rows", len(rs), "err", err)
			if len(rs) > maxBacklog {
				for _, r := range rs[maxBacklog:] {
					lost(r, err)
				}
				rs = rs[:maxBacklog]
			}
			return rs, err
		}
		rowsWritten.Add(float64(n))
		rs = rs[n:]
	}
	_, err := Seal(ctx, q.db)
	if err != nil {
		slog.Error("audit: sealing the chain failed; will retry", "err", err)
	}
	return nil, err
}

// final writes what is left at shutdown, trying a few times before giving
// the rows up to the process log.
func (q *queue) final(rs []record) {
	var err error
	for try := 0; try < 3; try++ {
		if rs, err = q.write(rs); len(rs) == 0 {
			return
		}
		time.Sleep(time.Second)
	}
	for _, r := range rs {
		lost(r, err)
	}
}

// lost puts a record that could not be written into the process log, so
// that it is not lost silently.
func lost(r record, err error) {
	rowsLost.Inc()
	slog.Error("audit record not written", "err", err, "at", r.createdAt, "user_id", r.userID, "username", r.username,
		"role", r.role, "action", r.action, "object_type", r.objectType, "object_id", r.objectID, "case_id", r.caseID,
		"ip", r.ip, "user_agent", r.userAgent, "outcome", r.outcome, "message", r.message)
}
