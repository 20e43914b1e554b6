// Package lifecycle starts background tasks on a context of their own
// whose stop function it keeps: a lifetime managed explicitly, not the
// caller's request dropped.
package lifecycle

import "context"

type Plugin struct {
	cancelTasks context.CancelFunc
}

func (p *Plugin) Configure(ctx context.Context) error {
	// Start long-running tasks.
	ctx, p.cancelTasks = context.WithCancel(context.Background())
	go p.rotate(ctx)
	return nil
}

func (p *Plugin) Close() error {
	p.cancelTasks()
	return nil
}

// Reload starts a task whose stop function is thrown away: the caller's
// context is dropped for nothing.
func (p *Plugin) Reload(ctx context.Context) {
	tctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) passed to a goroutine while ctx is available`
	_ = cancel
	go p.rotate(tctx)
}

func (p *Plugin) rotate(ctx context.Context) { <-ctx.Done() }
