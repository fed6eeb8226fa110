package tiles

import (
	"container/list"
	"hash/maphash"
	"sync"
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
	n := int64(len(data) + len(key) + 64)
	if n > s.limit {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[key]; ok {
		old := el.Value.(*memItem)
		s.size += int64(len(data) - len(old.data))
		old.data = data
		s.lru.MoveToFront(el)
	} else {
		s.items[key] = s.lru.PushFront(&memItem{key: key, data: data})
		s.size += n
	}
	for s.size > s.limit {
		el := s.lru.Back()
		it := el.Value.(*memItem)
		s.lru.Remove(el)
		delete(s.items, it.key)
		s.size -= int64(len(it.data) + len(it.key) + 64)
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
	mu sync.Mutex
	m  map[string]*flightCall
}

type flightCall struct {
	wg   sync.WaitGroup
	data []byte
	err  error
}

func (g *flightGroup) do(key string, fn func() ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*flightCall{}
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.data, c.err
	}
	c := &flightCall{}
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	c.data, c.err = fn()
	c.wg.Done()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.data, c.err
}
