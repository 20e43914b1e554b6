// Package hystrix stands in for a circuit-breaker library whose Do makes
// its own context and whose DoC takes one.
package hystrix

import "context"

func Do(name string, run func() error) error {
	return DoC(context.Background(), name, func(context.Context) error { return run() })
}

// DoC runs run on its own goroutine and waits for it or for ctx, as
// circuit-breaker libraries do: the context bounds the wait.
func DoC(ctx context.Context, name string, run func(context.Context) error) error {
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wrap calls Do inside the dependency: its alternative is not the
// user's to call.
func Wrap(name string) error { return Do(name, func() error { return nil }) }
