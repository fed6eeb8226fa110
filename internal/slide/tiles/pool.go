package tiles

import (
	"container/list"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"sync"

	"telepath/internal/slide"
)

// pool keeps up to max slides open, least recently used first out. A slide
// evicted while in use is closed when its last user releases it.
type pool struct {
	mu      sync.Mutex
	max     int
	maxCost int64      // decoded pixels one tile may need (NewSource)
	lru     *list.List // of *poolEntry, front = most recent
	byPath  map[string]*list.Element
	opening map[string]*sync.WaitGroup
}

type poolEntry struct {
	path    string
	src     *Source
	refs    int
	evicted bool
}

func newPool(max int, maxCost int64) *pool {
	return &pool{max: max, maxCost: maxCost, lru: list.New(), byPath: map[string]*list.Element{}, opening: map[string]*sync.WaitGroup{}}
}

// Acquire returns the slide file at path, opening it if needed, with an
// ID derived from the path, size and modification time (slide files are
// treated as immutable). Call release when done with it.
func (s *Service) Acquire(path string) (src *Source, release func(), err error) {
	return s.pool.acquire(path)
}

// Forget closes the cached handle of path (after its users release it), e.g.
// when the file is deleted or replaced.
func (s *Service) Forget(path string) {
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if el, ok := p.byPath[path]; ok {
		p.evict(el)
	}
}

func (p *pool) acquire(path string) (*Source, func(), error) {
	for {
		p.mu.Lock()
		if el, ok := p.byPath[path]; ok {
			e := el.Value.(*poolEntry)
			e.refs++
			p.lru.MoveToFront(el)
			p.mu.Unlock()
			return e.src, p.releaser(e), nil
		}
		if wg, ok := p.opening[path]; ok {
			p.mu.Unlock()
			wg.Wait()
			continue
		}
		wg := &sync.WaitGroup{}
		wg.Add(1)
		p.opening[path] = wg
		p.mu.Unlock()

		src, err := openSource(path, p.maxCost)

		p.mu.Lock()
		delete(p.opening, path)
		wg.Done()
		if err != nil {
			p.mu.Unlock()
			return nil, nil, err
		}
		e := &poolEntry{path: path, src: src, refs: 1}
		p.byPath[path] = p.lru.PushFront(e)
		for p.lru.Len() > p.max {
			p.evict(p.lru.Back())
		}
		p.mu.Unlock()
		return src, p.releaser(e), nil
	}
}

// evict must be called with p.mu held.
func (p *pool) evict(el *list.Element) {
	e := el.Value.(*poolEntry)
	p.lru.Remove(el)
	delete(p.byPath, e.path)
	e.evicted = true
	if e.refs == 0 {
		e.src.Slide.Close()
	}
}

func (p *pool) releaser(e *poolEntry) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			e.refs--
			if e.refs == 0 && e.evicted {
				e.src.Slide.Close()
			}
		})
	}
}

func (p *pool) closeAll() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.lru.Len() > 0 {
		p.evict(p.lru.Back())
	}
	return nil
}

func openSource(path string, maxCost int64) (*Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open slide: %w", err)
	}
	sl, err := slide.Open(path)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())
	src, err := NewSource(sl, strconv.FormatUint(h.Sum64(), 36), maxCost)
	if err != nil {
		sl.Close()
		return nil, err
	}
	return src, nil
}
