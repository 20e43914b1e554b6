package platform

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Event is something that happened to a trip, a driver or a payout.
type Event struct {
	Topic   string
	Key     string
	Payload []byte
	At      time.Time
}

// Handler consumes events of one topic.
type Handler func(ctx context.Context, e Event) error

// Bus is the in-process event bus that replaced Kafka for events that
// never leave the dispatch binary.
type Bus struct {
	mu             sync.RWMutex
	subs           map[string][]Handler
	inflight       sync.WaitGroup
	handlerTimeout time.Duration
	log            *slog.Logger
}

// NewBus returns a bus whose asynchronous handlers each get handlerTimeout.
// heldout: clean — constructor, no I/O
func NewBus(handlerTimeout time.Duration, log *slog.Logger) *Bus {
	return &Bus{subs: make(map[string][]Handler), handlerTimeout: handlerTimeout, log: log}
}

// Subscribe registers h for topic.
// heldout: clean — in-process registration
func (b *Bus) Subscribe(topic string, h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs[topic] = append(b.subs[topic], h)
}

// PublishAsync hands e to every subscriber without waiting. Subscribers
// run after the publishing request has returned, so they get ctx's values
// without its cancellation, and a timeout of their own.
// heldout: clean — detachment is deliberate and each handler is bounded by handlerTimeout
func (b *Bus) PublishAsync(ctx context.Context, e Event) {
	b.mu.RLock()
	hs := append([]Handler(nil), b.subs[e.Topic]...)
	b.mu.RUnlock()
	base := context.WithoutCancel(ctx)
	for _, h := range hs {
		b.inflight.Add(1)
		go func(h Handler) {
			defer b.inflight.Done()
			hctx, cancel := context.WithTimeout(base, b.handlerTimeout)
			defer cancel()
			if err := h(hctx, e); err != nil {
				b.log.Warn("event handler failed", "topic", e.Topic, "key", e.Key, "err", err)
			}
		}(h)
	}
}

// Drain waits for in-flight handlers, or until ctx is done.
// heldout: clean — in-process wait bounded by ctx
func (b *Bus) Drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
