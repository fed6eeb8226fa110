package tiles

import (
	"container/list"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"
)

const cacheShards = 16

// memCache is a byte-bounded LRU of encoded images, sharded so that
// concurrent hits rarely contend.
type memCache struct {
	seed   maphash.Seed
	shards [cacheShards]memShard
}

type memShard struct {
	mu    sync.Mutex
	limit int64
	size  int64
	lru   *list.List
	items map[string]*list.Element
}

type memItem struct {
	key  string
	data []byte
	size int64
}

// itemOverhead approximates the bookkeeping of one entry (list element,
// map slot, item): small tiles are mostly overhead.
const itemOverhead = 160

// itemSize is what an entry holds in memory: its slice's whole capacity,
// not only its length, and its bookkeeping.
func itemSize(key string, data []byte) int64 {
	return int64(cap(data) + len(key) + itemOverhead)
}

func newMemCache(limit int64) *memCache {
	c := &memCache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i] = memShard{limit: limit / cacheShards, lru: list.New(), items: map[string]*list.Element{}}
	}
	return c
}

func (c *memCache) shard(key string) *memShard {
	return &c.shards[maphash.String(c.seed, key)%cacheShards]
}

func (c *memCache) get(key string) ([]byte, bool) {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.items[key]
	if !ok {
		return nil, false
	}
	s.lru.MoveToFront(el)
	return el.Value.(*memItem).data, true
}

func (c *memCache) put(key string, data []byte) {
	s := c.shard(key)
	n := itemSize(key, data)
	if n > s.limit {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[key]; ok {
		old := el.Value.(*memItem)
		s.size += n - old.size
		old.data, old.size = data, n
		s.lru.MoveToFront(el)
	} else {
		s.items[key] = s.lru.PushFront(&memItem{key: key, data: data, size: n})
		s.size += n
	}
	for s.size > s.limit {
		el := s.lru.Back()
		it := el.Value.(*memItem)
		s.lru.Remove(el)
		delete(s.items, it.key)
		s.size -= it.size
	}
}

// bytes reports the accounted size of the cache.
func (c *memCache) bytes() int64 {
	var n int64
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += s.size
		s.mu.Unlock()
	}
	return n
}

// flightGroup makes concurrent renders of one key share a single render.
type flightGroup struct {
	mu      sync.Mutex
	m       map[string]*flightCall
	running atomic.Int64
}

type flightCall struct {
	done    chan struct{}
	data    []byte
	err     error
	waiters int
	cancel  context.CancelFunc
}

// len is the number of renders running.
func (g *flightGroup) len() int { return int(g.running.Load()) }

// do runs fn once for the concurrent callers of key and returns its result
// to each caller still waiting. fn's context carries the first caller's
// values (render budget) and is cancelled when the last waiting caller
// goes away: a render nobody waits for stops, one that others still wait
// for goes on.
func (g *flightGroup) do(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*flightCall{}
	}
	c, ok := g.m[key]
	if !ok {
		rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		c = &flightCall{done: make(chan struct{}), cancel: cancel}
		g.m[key] = c
		g.running.Add(1)
		go func() {
			defer g.running.Add(-1)
			data, err := fn(rctx)
			g.mu.Lock()
			c.data, c.err = data, err
			if g.m[key] == c {
				delete(g.m, key)
			}
			g.mu.Unlock()
			cancel()
			close(c.done)
		}()
	}
	c.waiters++
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.data, c.err
	case <-ctx.Done():
		g.mu.Lock()
		if c.waiters--; c.waiters == 0 {
			c.cancel()
			if g.m[key] == c {
				delete(g.m, key) // a later caller starts afresh
			}
		}
		g.mu.Unlock()
		return nil, ctx.Err()
	}
}
