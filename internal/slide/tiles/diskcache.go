package tiles

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// diskCache is a byte-bounded LRU of encoded images stored as files named
// by the hash of their key. On start it adopts the files already present,
// oldest first. Its index lives in memory, so the number of entries is
// bounded too: a slide of blank tiles must not fill it with millions.
type diskCache struct {
	dir        string
	limit      int64
	maxEntries int
	mu         sync.Mutex
	size       int64
	lru        *list.List // of *diskItem, front = most recent
	items      map[string]*list.Element
}

type diskItem struct {
	name string
	size int64
}

func openDiskCache(dir string, limit int64) (*diskCache, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("tile disk cache: %w", err)
	}
	c := &diskCache{dir: dir, limit: limit, maxEntries: int(max(limit/diskEntryBytes, 1024)), lru: list.New(), items: map[string]*list.Element{}}
	type found struct {
		name string
		size int64
		mod  int64
	}
	var files []found
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".tmp") {
			os.Remove(p) // left over from a crash
			return nil
		}
		if len(name) != 64 {
			return nil
		}
		if info, err := d.Info(); err == nil {
			files = append(files, found{name, info.Size(), info.ModTime().UnixNano()})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tile disk cache: %w", err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	for _, f := range files {
		c.items[f.name] = c.lru.PushBack(&diskItem{f.name, f.size})
		c.size += f.size
	}
	c.mu.Lock()
	c.evictLocked()
	c.mu.Unlock()
	return c, nil
}

func diskName(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

func (c *diskCache) path(name string) string {
	return filepath.Join(c.dir, name[:2], name)
}

func (c *diskCache) get(key string) ([]byte, bool) {
	name := diskName(key)
	c.mu.Lock()
	el, ok := c.items[name]
	if ok {
		c.lru.MoveToFront(el)
	}
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	b, err := os.ReadFile(c.path(name))
	if err != nil {
		c.mu.Lock()
		if el, ok := c.items[name]; ok {
			c.removeLocked(el)
		}
		c.mu.Unlock()
		return nil, false
	}
	return b, true
}

func (c *diskCache) put(key string, data []byte) {
	if int64(len(data)) > c.limit {
		return
	}
	name := diskName(key)
	p := c.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[name]; ok {
		it := el.Value.(*diskItem)
		c.size += int64(len(data)) - it.size
		it.size = int64(len(data))
		c.lru.MoveToFront(el)
	} else {
		c.items[name] = c.lru.PushFront(&diskItem{name, int64(len(data))})
		c.size += int64(len(data))
	}
	c.evictLocked()
}

// diskEntryBytes is the average entry size the entry bound assumes.
const diskEntryBytes = 16 << 10

func (c *diskCache) evictLocked() {
	for (c.size > c.limit || c.lru.Len() > c.maxEntries) && c.lru.Len() > 0 {
		el := c.lru.Back()
		os.Remove(c.path(el.Value.(*diskItem).name))
		c.removeLocked(el)
	}
}

func (c *diskCache) removeLocked(el *list.Element) {
	it := el.Value.(*diskItem)
	c.lru.Remove(el)
	delete(c.items, it.name)
	c.size -= it.size
}
