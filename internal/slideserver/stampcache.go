package slideserver

import (
	"container/list"
	"strconv"
	"sync"
)

// stampCacheBytes bounds the stamped tiles and thumbnails kept in memory
// (about 2,000 256-px tiles).
const stampCacheBytes = 64 << 20

// stampCache keeps stamped images, the least recently used dropped first
// once their bytes pass the bound. An entry is keyed by the source image's
// ETag (which names the slide file's content and the tile), the tile size
// and the watermark text, so two shares with the same text share entries.
// It holds no share: the slide server checks the share's grant before it
// asks the cache (Server.check), so a cancelled or expired share gets
// nothing from it.
type stampCache struct {
	mu    sync.Mutex
	max   int // bytes; 0: stampCacheBytes
	bytes int
	order *list.List // of *stamped, most recent first
	m     map[string]*list.Element
}

type stamped struct {
	key string
	b   []byte
	tag string
}

func stampKey(tag, text string, period int) string {
	return tag + "|" + strconv.Itoa(period) + "|" + text
}

func (c *stampCache) get(key string) ([]byte, string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[key]
	if !ok {
		return nil, "", false
	}
	c.order.MoveToFront(el)
	e := el.Value.(*stamped)
	return e.b, e.tag, true
}

func (c *stampCache) put(key string, b []byte, tag string) {
	limit := c.max
	if limit == 0 {
		limit = stampCacheBytes
	}
	size := len(b) + len(key) + len(tag)
	if size > limit/8 {
		return // one image never crowds out the rest
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m, c.order = map[string]*list.Element{}, list.New()
	}
	if _, ok := c.m[key]; ok {
		return
	}
	c.m[key] = c.order.PushFront(&stamped{key: key, b: b, tag: tag})
	c.bytes += size
	for c.bytes > limit {
		last := c.order.Back()
		e := last.Value.(*stamped)
		c.order.Remove(last)
		delete(c.m, e.key)
		c.bytes -= len(e.b) + len(e.key) + len(e.tag)
	}
}
