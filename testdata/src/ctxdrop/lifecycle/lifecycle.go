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
