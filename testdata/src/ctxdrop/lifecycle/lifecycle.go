package lifecycle

import "context"

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

// JoinDeferred cancels when Join returns: the goroutine is cut loose from
// the caller for no lifetime of its own.
func JoinDeferred(ctx context.Context, p *participant) {
	alive, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) passed to a goroutine while ctx is available`
	defer cancel()
	go notify(alive, p)
}
