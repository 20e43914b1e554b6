// Package retains has functions that keep their context for the life of
// what they start (retainsCtx) and functions that only carry it into
// work their caller runs at once (no claim).
package retains

import (
	"context"
	"net/http"
	"sync"
)

// Room keeps a cancellable context derived from its constructor's and
// cancels it on Close.
type Room struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// NewRoom stores the derived context with its cancel function: the room
// manages the lifetime.
func NewRoom(ctx context.Context) *Room { // want NewRoom:`^retainsCtx$`
	r := &Room{}
	r.ctx, r.cancel = context.WithCancel(ctx)
	return r
}

func (r *Room) Close() { r.cancel() }

// StartPoller hands its context to a goroutine it does not wait for.
func StartPoller(ctx context.Context) { // want StartPoller:`^retainsCtx ctxIO\(0\)$`
	go poll(ctx)
}

func poll(ctx context.Context) { <-ctx.Done() } // want poll:`^ctxIO\(0\)$`

// Svc keeps the context its Start is given for a loop that reads it.
type Svc struct{ ctx context.Context }

// Start stores its context in the receiver and starts a worker that will
// read it there.
func (s *Svc) Start(ctx context.Context) { // want Start:`^retainsCtx$`
	s.ctx = ctx
	go s.loop()
}

func (s *Svc) loop() { <-s.ctx.Done() }

// Open retains through a callee that does.
func Open(ctx context.Context) *Room { // want Open:`^retainsCtx$`
	return NewRoom(ctx)
}

// Req carries its context to the call its caller makes at once.
type Req struct {
	ctx context.Context
	url string
}

// NewReq only builds a value: no claim.
func NewReq(ctx context.Context, url string) *Req {
	return &Req{ctx: ctx, url: url}
}

// Send does the request's work now.
func Send(r *Req) error { // want Send:`^outbound$`
	req, err := http.NewRequestWithContext(r.ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// FanOut waits for the goroutines it hands its context to: no claim.
func FanOut(ctx context.Context, urls []string) { // want FanOut:`^outbound$`
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Send(&Req{ctx: ctx, url: u})
		}()
	}
	wg.Wait()
}
