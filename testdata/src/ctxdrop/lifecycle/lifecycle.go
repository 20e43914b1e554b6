package lifecycle

import (
	"context"
	"sync"
)

type participant struct{ onClose []func() }

func (p *participant) AddOnClose(f func())             { p.onClose = append(p.onClose, f) }
func (p *participant) OnDone(f context.CancelFunc)     { p.onClose = append(p.onClose, f) }
func notify(ctx context.Context, p *participant) error { <-ctx.Done(); return ctx.Err() }

// Join ties the session's context to the participant's life: the cancel
// runs from its close hook.
func Join(ctx context.Context, p *participant) {
	alive, cancel := context.WithCancel(context.Background())
	p.AddOnClose(func() { cancel() })
	go notify(alive, p)
}

// JoinDirect hands the cancel itself to the hook.
func JoinDirect(ctx context.Context, p *participant) {
	alive, cancel := context.WithCancel(context.Background())
	p.OnDone(cancel)
	go notify(alive, p)
}

// JoinWaited cancels when it returns and waits for the goroutine: its
// work is the caller's, cut loose from the caller's context.
func JoinWaited(ctx context.Context, p *participant) {
	var wg sync.WaitGroup
	alive, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) passed to a goroutine while ctx is available`
	defer cancel()
	wg.Add(1)
	go notify(alive, p)
	wg.Wait()
}

type backend struct{}

// Start runs the backend's start-up query on ctx: its context matters.
func (b *backend) Start(ctx context.Context) error { return notify(ctx, nil) }

// Listen gives the backend a context of its own that a goroutine cancels
// once the server has drained after ctx is done: a lifetime managed
// explicitly, longer than ctx on purpose.
func Listen(ctx context.Context, b *backend) error {
	bctx, bcancel := context.WithCancel(context.Background())
	go func() {
		<-ctx.Done()
		bcancel()
	}()
	return b.Start(bctx)
}

// ListenNow cancels when it returns: nothing outlives the call, and the
// backend's start lost the caller's context.
func ListenNow(ctx context.Context, b *backend) error {
	bctx, bcancel := context.WithCancel(context.Background()) // want `context.Background\(\) passed to lifecycle.backend.Start while ctx is available`
	defer bcancel()
	return b.Start(bctx)
}
