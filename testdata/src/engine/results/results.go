// Package results exercises the results fixed point on recursion: each
// round joins with the last, starting from no value at all, so mutually
// recursive helpers keep the claims every path agrees on.
package results

import (
	"context"
	"net/http"
	"time"
)

// pick and again call each other; every path ends in the caller's
// context.
func pick(ctx context.Context, n int) context.Context { // want pick:`^returns\(ctx0:param0\)$`
	if n == 0 {
		return ctx
	}
	return again(ctx, n-1)
}

func again(ctx context.Context, n int) context.Context { // want again:`^returns\(ctx0:param0\)$`
	return pick(ctx, n)
}

// bounded recurses until it has made a context with a deadline.
func bounded(ctx context.Context, n int) (context.Context, context.CancelFunc) { // want bounded:`^returns\(ctx0:bounded\)$`
	if n == 0 {
		return context.WithTimeout(ctx, time.Second)
	}
	return bounded(ctx, n-1)
}

// mixed is bounded on one path and detached on the other: the join is
// unbounded.
func mixed(ctx context.Context, n int) context.Context { // want mixed:`^returns\(ctx0:unbounded\)$`
	switch n {
	case 0:
		c, _ := context.WithTimeout(ctx, time.Second) //nolint:govet // the fixture leaks on purpose
		return c
	case 1:
		return context.Background()
	}
	return mixed(ctx, n-2)
}

// spin never returns a value: no claim.
func spin(ctx context.Context) context.Context {
	return spin(ctx)
}

// Fetch uses them all, so they are more than dead code.
func Fetch(ctx context.Context, c *http.Client) { // want Fetch:`^ctxIO\(0\) outbound$`
	req, _ := http.NewRequestWithContext(pick(ctx, 3), http.MethodGet, "http://example.com", nil)
	c.Do(req)
	b, cancel := bounded(ctx, 2)
	defer cancel()
	_ = b
	_ = mixed(ctx, 4)
	_ = spin(ctx)
}
