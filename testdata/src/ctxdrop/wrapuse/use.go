// Package wrapuse hands work to a wrapper: where the work captures the
// caller's context already, the wrapper's context-taking variant would
// govern only its own wait, and the call is not reported.
package wrapuse

import (
	"context"

	"ctxdrop/wrappers"
)

func work(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }

func Watch(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return wrappers.Graceful(func() error { return work(ctx) })
}

func Idle(ctx context.Context) error {
	return wrappers.Graceful(func() error { return nil }) // want `wrappers.Graceful ignores the caller's context while ctx is available`
}
