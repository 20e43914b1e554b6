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

// Reload starts a task whose stop function is thrown away, and does not
// wait for it: the task outlives the call whatever its context (go vet's
// lostcancel reports the lost cancel), so no drop is reported.
func (p *Plugin) Reload(ctx context.Context) {
	tctx, cancel := context.WithCancel(context.Background())
	_ = cancel
	go p.rotate(tctx)
}

func (p *Plugin) rotate(ctx context.Context) { <-ctx.Done() }
