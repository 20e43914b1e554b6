// Package app calls dependencies that make their own root contexts.
package app

import (
	"context"
	"net/http"

	"example.com/gossip"
	"example.com/hystrix"
)

func charge(w http.ResponseWriter, r *http.Request) {
	hystrix.Do("charge", func() error { return nil }) // want `call to hystrix.Do drops the caller's context: hystrix.Do makes its own context.Background\(\) in example.com/hystrix \(hystrix.go:\d+:\d+\); call hystrix.DoC with r.Context\(\) instead`
}

// The root is inside gossip, and nothing on the way takes a context:
// nothing the user can change helps.
func join(ctx context.Context) error {
	return gossip.Join([]string{"a"})
}

// The user's own helper on the way does not make the root theirs.
func warm() error { return gossip.Join(nil) }

func start(ctx context.Context) error { return warm() }

// A root in the user's own module is reported as before.
func local() error { return ping(context.Background()) }

func ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://peer/ping", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func handler(ctx context.Context) error {
	return local() // want `call to app.local drops the caller's context: it makes its own context.Background\(\)`
}

// The dependency calls Do itself: nothing the user can change.
func wraps(w http.ResponseWriter, r *http.Request) {
	hystrix.Wrap("x")
}

// The user's own helper calls Do: the helper can call DoC.
func charge2() error { return hystrix.Do("charge", func() error { return nil }) }

func handler2(ctx context.Context) error {
	return charge2() // want `call to app.charge2 drops the caller's context: hystrix.Do makes its own context.Background\(\) in example.com/hystrix \(hystrix.go:\d+:\d+\); call hystrix.DoC with ctx instead`
}
