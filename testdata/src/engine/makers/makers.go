// Package makers holds helpers that return a fresh root context, and
// look-alikes that do not.
package makers

import (
	"context"
	"time"
)

// Detached returns a context tied to no caller, with a deadline.
func Detached(d time.Duration) (context.Context, context.CancelFunc) { // want Detached:`^returns\(ctx0:bounded\) returnsRoot\(0:context.Background, bounded\)$`
	return context.WithTimeout(context.Background(), d)
}

// Fresh returns a bare root.
func Fresh() context.Context { // want Fresh:`^returns\(ctx0:unbounded\) returnsRoot\(0:context.TODO\)$`
	return context.TODO()
}

// Longer returns the root another helper makes, with a value added.
func Longer() context.Context { // want Longer:`^returns\(ctx0:unbounded\) returnsRoot\(0:context.TODO\)$`
	return context.WithValue(Fresh(), key{}, 1)
}

type key struct{}

// WithDefault derives from the caller's context: no fresh root.
func WithDefault(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) { // want WithDefault:`^returns\(ctx0:bounded\)$`
	return context.WithTimeout(ctx, d)
}

// Orphan makes a root and keeps it: nothing is returned.
func Orphan(done chan<- context.Context) {
	done <- context.Background()
}

// OrDefault is given a context and falls back to a root: its callers pass
// theirs, so it makes none for them.
func OrDefault(ctx context.Context) context.Context { // want OrDefault:`^returns\(ctx0:param0\)$`
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Request holds a context, as *http.Request does.
type Request struct{ ctx context.Context }

// Context returns the context it holds, and a root only as the fallback
// when it holds none: no fresh context for its callers.
func (r *Request) Context() context.Context {
	if r.ctx != nil {
		return r.ctx
	}
	return context.Background()
}
