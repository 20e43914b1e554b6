// Package everyday holds notimeout's cases written like everyday service
// code: helpers, options, decorators, closures and loops. Each case says
// whether it is reported and why.
package everyday

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

var db *sql.DB

// --- func values: a closure handed to a helper runs where the helper calls it ---

func withConn(ctx context.Context, fn func(context.Context) error) error {
	return fn(ctx)
}

func closureThroughHelper() error {
	return withConn(context.Background(), func(ctx context.Context) error { // want `context.Background\(\) reaches sql.DB.QueryContext \(via everyday.withConn -> everyday.closureThroughHelper \(closure\) -> sql.DB.QueryContext\) with no deadline`
		_, err := db.QueryContext(ctx, "select 1")
		return err
	})
}

func closureThroughHelperBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return withConn(ctx, func(ctx context.Context) error { // ok: bounded before the helper
		_, err := db.QueryContext(ctx, "select 1")
		return err
	})
}

func closureBoundsItself() error {
	return withConn(context.Background(), func(ctx context.Context) error { // ok: the closure adds the deadline
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		_, err := db.QueryContext(ctx, "select 1")
		return err
	})
}

// --- a client's Timeout set by a helper it is handed to, or an option ---

type option func(*http.Client)

func withTimeout(d time.Duration) option { return func(c *http.Client) { c.Timeout = d } }

func newClient(opts ...option) *http.Client {
	c := &http.Client{}
	for _, o := range opts {
		o(c)
	}
	return c
}

func configure(c *http.Client) { c.Timeout = 3 * time.Second }

func clientConfiguredByHelper(u string) {
	c := &http.Client{}
	configure(c)
	c.Get(u) // ok: the helper sets Timeout (the client escapes to it: no claim)
}

func clientFromOptions(u string) {
	c := newClient(withTimeout(time.Second))
	c.Get(u) // ok: an option may set Timeout
}

func plainClient() *http.Client { return &http.Client{} }

func clientTimeoutSetAfterMade(u string) {
	c := plainClient()
	c.Timeout = 5 * time.Second
	c.Get(u) // ok: the caller gives the client it got a Timeout
}

func clientTimeoutZeroedAfterMade(u string) {
	c := plainClient()
	c.Timeout = 0
	c.Get(u) // want `http.Client.Get has no timeout: it sends its request without a context and a client without Timeout \(from everyday.plainClient\)`
}

// --- a helper that bounds its context only under a condition ---

func bounded(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

func conditionalBoundTaken() error {
	ctx, cancel := bounded(context.Background(), 2*time.Second) // ok: a positive constant takes the bounding branch
	defer cancel()
	_, err := db.QueryContext(ctx, "select 1")
	return err
}

// --- WithCancel whose cancel a timer schedules ---

func cancelledByTimer() error {
	ctx, cancel := context.WithCancel(context.Background()) // ok: time.AfterFunc cancels it: a deadline by another name
	t := time.AfterFunc(5*time.Second, cancel)
	defer t.Stop()
	_, err := db.QueryContext(ctx, "select 1")
	return err
}

// --- a closure that captures a context later re-bound to a bounded one ---

func rebindBeforeRun() error {
	ctx := context.Background()
	run := func() error {
		_, err := db.QueryContext(ctx, "select 1")
		return err
	}
	var cancel context.CancelFunc
	ctx, cancel = context.WithTimeout(ctx, time.Second) // ok: bounded before run runs
	defer cancel()
	return run()
}

// --- a context re-derived inside a loop ---

func loopRederived(ids []string) error {
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second) // ok: bounded in every iteration
		_, err := db.QueryContext(ctx, "select ?", id)
		cancel()
		if err != nil {
			break
		}
	}
	return nil
}

func loopWithBreak(ids []string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	for _, id := range ids {
		if id == "" {
			break
		}
		_, err := db.QueryContext(ctx, "select ?", id)
		if err != nil {
			continue
		}
	}
	return nil
}

func loopRetryOnErr(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if ctx.Err() != nil {
			ctx = context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
		}
		if _, err := db.QueryContext(ctx, "select 1"); err == nil {
			return nil
		}
	}
	return nil
}

// --- a client without Timeout behind an interface field ---

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

type api struct{ hc doer }

func newAPI() *api { return &api{hc: &http.Client{}} }

func (a *api) get(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	_, err = a.hc.Do(req) // the dynamic type is a client without Timeout; the caller's context decides
	return err
}

func (a *api) getAll(u string) error {
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		return err
	}
	_, err = a.hc.Do(req) // want `everyday.doer.Do has no deadline: the request's context \(http.NewRequest's context.Background\(\) at everyday.go:\d+:\d+\) has none and the client \(a client without Timeout at everyday.go:\d+:\d+\) has no Timeout`
	return err
}

// --- a decorator that adds a timeout, behind an interface field ---

type timeoutDoer struct {
	next *http.Client
	d    time.Duration
}

func (t *timeoutDoer) Do(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.d)
	defer cancel()
	return t.next.Do(req.WithContext(ctx))
}

type rawDoer struct{ next *http.Client }

func (r *rawDoer) Do(req *http.Request) (*http.Response, error) { return r.next.Do(req) }

type decorated struct{ hc doer }

func newDecorated() *decorated {
	return &decorated{hc: &timeoutDoer{next: http.DefaultClient, d: time.Second}}
}

func (d *decorated) get(u string) error {
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		return err
	}
	_, err = d.hc.Do(req) // ok: the decorator stored in the field adds a deadline (rawDoer, which does not, is never stored here)
	return err
}

func useRaw(u string) error {
	var hc doer = &rawDoer{next: &http.Client{Timeout: time.Second}}
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		return err
	}
	_, err = hc.Do(req) // ok: the raw decorator's client has a Timeout
	return err
}

// --- a client made by a factory func value ---

type fetcher struct {
	newClient func() *http.Client
}

func newFetcher() *fetcher {
	return &fetcher{newClient: func() *http.Client { return &http.Client{} }}
}

func (f *fetcher) fetch(u string) {
	c := f.newClient()
	c.Get(u) // want `http.Client.Get has no timeout: it sends its request without a context and a client without Timeout \(from a function value\) at everyday.go:\d+:\d+ has no Timeout`
}

type boundedFetcher struct {
	newClient func() *http.Client
}

func newBoundedFetcher() *boundedFetcher {
	return &boundedFetcher{newClient: func() *http.Client { return &http.Client{Timeout: time.Second} }}
}

func (f *boundedFetcher) fetch(u string) {
	f.newClient().Get(u) // ok: every factory stored makes a client with Timeout
}

// --- a wrapper M() calling its own MWithContext(context.Background()) ---

type kv struct{ hc *http.Client }

func newKV() *kv { return &kv{hc: &http.Client{}} }

func (k *kv) GetWithContext(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	_, err = k.hc.Do(req)
	return err
}

// Get is the convenience wrapper of GetWithContext: on a client without
// Timeout nothing bounds it, and callers without a context are reported
// by nobody else.
func (k *kv) Get(u string) error {
	return k.GetWithContext(context.Background(), u) // want `context.Background\(\) reaches http.Client.Do \(via everyday.kv.GetWithContext -> http.Client.Do\) with no deadline`
}

type boundedKV struct{ hc *http.Client }

func newBoundedKV() *boundedKV { return &boundedKV{hc: &http.Client{Timeout: time.Second}} }

func (k *boundedKV) GetWithContext(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	_, err = k.hc.Do(req)
	return err
}

func (k *boundedKV) Get(u string) error {
	return k.GetWithContext(context.Background(), u) // ok: the client has a Timeout
}

// --- a request built by a helper from the caller's context, sent on a
// client the constructor's literal stores ---

type svc struct{ hc *http.Client }

func newSvc() *svc { return &svc{hc: &http.Client{}} }

func buildReq(ctx context.Context, u string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, "GET", u, nil)
}

func (s *svc) call(ctx context.Context, u string) error {
	req, err := buildReq(ctx, u)
	if err != nil {
		return err
	}
	_, err = s.hc.Do(req)
	return err
}

func (s *svc) refresh(u string) error {
	return s.call(context.Background(), u) // want `context.Background\(\) reaches http.Client.Do \(via everyday.svc.call -> http.Client.Do\) with no deadline`
}

func (s *svc) refreshBounded(u string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return s.call(ctx, u) // ok: bounded before the helper
}
