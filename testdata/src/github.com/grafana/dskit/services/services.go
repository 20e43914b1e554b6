// Package services is a stub of dskit's services: StartAsync makes the
// service's own context from the one it is given, for the service's life.
package services

import "context"

type Service interface {
	StartAsync(ctx context.Context) error
	AwaitRunning(ctx context.Context) error
	StopAsync()
	AwaitTerminated(ctx context.Context) error
}

type BasicService struct {
	serviceContext context.Context
	serviceCancel  context.CancelFunc
	running        chan struct{}
	done           chan struct{}
	run            func(ctx context.Context) error
}

func NewBasicService(run func(ctx context.Context) error) *BasicService {
	return &BasicService{running: make(chan struct{}), done: make(chan struct{}), run: run}
}

func (b *BasicService) switchState(f func()) { f() }

func (b *BasicService) StartAsync(parent context.Context) error {
	b.switchState(func() {
		b.serviceContext, b.serviceCancel = context.WithCancel(parent)
		go b.main()
	})
	return nil
}

func (b *BasicService) main() {
	close(b.running)
	_ = b.run(b.serviceContext)
	close(b.done)
}

func (b *BasicService) AwaitRunning(ctx context.Context) error {
	select {
	case <-b.running:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *BasicService) StopAsync() { b.serviceCancel() }

func (b *BasicService) AwaitTerminated(ctx context.Context) error {
	select {
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
