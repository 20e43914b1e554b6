package breaker

import (
	"container/list"
	"sync"
)

// Group holds one breaker per key (a host, an endpoint): one failure
// domain each, so one bad host does not open the circuit for all. It keeps
// at most max breakers (NewGroup's; 1,024 by default), evicting the least
// recently used closed one when a new key would exceed it. It never
// evicts a circuit still cooling down or probing: that would hand its key
// a fresh closed breaker and the failing dependency its full load again.
// While every other breaker is open or half-open the group holds more
// than max, temporarily: once an open circuit's cooldown is over and no
// probe is out, it may be evicted too, least recently used first.
//
// The zero Group is ready to use: default Settings (named after the key),
// at most 1,024 breakers. A Group is safe for concurrent use and must not
// be copied after first use.
type Group struct {
	settings func(key string) Settings
	max      int

	mu    sync.Mutex
	byKey map[string]*list.Element // made on first use
	lru   list.List                // of *entry, most recent first
}

type entry struct {
	key string
	b   *Breaker
}

// defaultGroupMax is the breakers a Group keeps when not told.
const defaultGroupMax = 1024

// NewGroup returns a Group that makes breakers with settings(key) (nil
// means default Settings; Name defaults to the key) and keeps at most max
// of them, as Group says (0 means 1024).
func NewGroup(max int, settings func(key string) Settings) *Group {
	return &Group{settings: settings, max: max}
}

// Get returns the breaker for key, creating it if needed.
func (g *Group) Get(key string) *Breaker {
	g.mu.Lock()
	defer g.mu.Unlock()
	if el, ok := g.byKey[key]; ok {
		g.lru.MoveToFront(el)
		return el.Value.(*entry).b
	}
	var s Settings
	if g.settings != nil {
		s = g.settings(key)
	}
	if s.Name == "" {
		s.Name = key
	}
	b := New(s)
	if g.byKey == nil {
		g.byKey = map[string]*list.Element{}
	}
	g.byKey[key] = g.lru.PushFront(&entry{key, b})
	g.evict()
	return b
}

// evict removes breakers until the group is back to its maximum or only
// breakers that still protect their dependency are left. mu held.
func (g *Group) evict() {
	max := g.max
	if max <= 0 {
		max = defaultGroupMax
	}
	for g.lru.Len() > max {
		el := g.victim()
		if el == nil {
			return // over the maximum until a cooldown ends
		}
		g.lru.Remove(el)
		delete(g.byKey, el.Value.(*entry).key)
	}
}

// victim is the least recently used closed breaker or, if none is closed,
// the least recently used whose cooldown is over with no probe out; nil
// if every breaker still protects its dependency. The newest, which Get
// is about to return, is never a victim. The walk stops at the first
// closed breaker from the back, which is usually the last. mu held.
func (g *Group) victim() *list.Element {
	var cooled *list.Element
	for el := g.lru.Back(); el != nil && el != g.lru.Front(); el = el.Prev() {
		switch el.Value.(*entry).b.evictable() {
		case evictNow:
			return el
		case evictLater:
			if cooled == nil {
				cooled = el
			}
		}
	}
	return cooled
}

// eviction is what evicting a breaker would lose.
type eviction int

const (
	evictNow   eviction = iota // closed: a fresh breaker starts the same, but for its window
	evictLater                 // cooldown over, no probe out: its next call would only be a probe
	evictNever                 // cooling down or probing: the protection itself
)

// evictable says what evicting b would lose.
func (b *Breaker) evictable() eviction {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.state == Closed:
		return evictNow
	case b.state == Open && now.Before(b.openUntil), b.state == HalfOpen && b.probes > 0:
		return evictNever
	}
	return evictLater
}

// Len returns the number of breakers held.
func (g *Group) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lru.Len()
}
