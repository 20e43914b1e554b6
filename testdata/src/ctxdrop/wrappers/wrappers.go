// Package wrappers runs work handed to it as a func, waiting on a
// context of its own making (a signal wait, a retry timer).
package wrappers

import "context"

// Graceful runs start until it returns.
func Graceful(start func() error) error {
	return GracefulContext(context.Background(), start)
}

// GracefulContext also returns when ctx is done.
func GracefulContext(ctx context.Context, start func() error) error {
	errc := make(chan error, 1)
	go func() { errc <- start() }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-errc:
		return err
	}
}
