package breaker

import (
	"container/list"
	"sync"
)

// Group holds one breaker per key (a host, an endpoint): one failure
// domain each, so one bad host does not open the circuit for all. It keeps
// at most Max breakers, evicting the least recently used; the zero value
// is not usable, create it with NewGroup. A Group is safe for concurrent
// use.
type Group struct {
	settings func(key string) Settings
	max      int

	mu    sync.Mutex
	byKey map[string]*list.Element
	lru   *list.List // of *entry, most recent first
}

type entry struct {
	key string
	b   *Breaker
}

// NewGroup returns a Group that makes breakers with settings(key) (Name
// defaults to the key) and keeps at most max of them (0 means 1024).
func NewGroup(max int, settings func(key string) Settings) *Group {
	if max <= 0 {
		max = 1024
	}
	return &Group{settings: settings, max: max, byKey: map[string]*list.Element{}, lru: list.New()}
}

// Get returns the breaker for key, creating it if needed.
func (g *Group) Get(key string) *Breaker {
	g.mu.Lock()
	defer g.mu.Unlock()
	if el, ok := g.byKey[key]; ok {
		g.lru.MoveToFront(el)
		return el.Value.(*entry).b
	}
	s := g.settings(key)
	if s.Name == "" {
		s.Name = key
	}
	b := New(s)
	g.byKey[key] = g.lru.PushFront(&entry{key, b})
	for g.lru.Len() > g.max {
		old := g.lru.Back()
		g.lru.Remove(old)
		delete(g.byKey, old.Value.(*entry).key)
	}
	return b
}

// Len returns the number of breakers held.
func (g *Group) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lru.Len()
}
