// Package memprobe measures the peak memory of a piece of work, for tests
// and benchmarks that prove memory stays bounded (it samples
// runtime.MemStats; it is not meant for production code paths).
package memprobe

import (
	"runtime"
	"sync"
	"time"
)

// Probe samples the heap in use and the memory obtained from the OS until Stop.
type Probe struct {
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	peak Peak
}

// Peak is the largest figures seen, in bytes.
type Peak struct {
	HeapInuse uint64 // live and not yet collected heap spans
	Sys       uint64 // all memory the Go runtime obtained from the OS (≈ RSS ceiling)
}

// Start begins sampling every interval (10 ms when zero).
func Start(interval time.Duration) *Probe {
	if interval <= 0 {
		interval = 10 * time.Millisecond
	}
	p := &Probe{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			p.sample()
			select {
			case <-p.stop:
				p.sample()
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *Probe) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.mu.Lock()
	p.peak.HeapInuse = max(p.peak.HeapInuse, ms.HeapInuse)
	p.peak.Sys = max(p.peak.Sys, ms.Sys-ms.HeapReleased)
	p.mu.Unlock()
}

// Stop ends sampling and returns the peaks.
func (p *Probe) Stop() Peak {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// MB is n bytes in mebibytes.
func MB(n uint64) float64 { return float64(n) / (1 << 20) }
