// Package retries holds the retry claim's cases: layers, their counts
// and products, retried func parameters, and outbound work.
package retries

import (
	"context"
	"errors"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/resilvet/resilvet/runtime/retry"
)

type Client struct {
	hc  *http.Client // want hc:`^client:bounded$`
	url string
	max int
}

func NewClient() *Client { return &Client{hc: &http.Client{Timeout: time.Second}, max: 4} }

// Get sends one request: outbound work, no layer.
func (c *Client) Get(ctx context.Context) error { // want Get:`^ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Field retries as many times as a field set to a constant says.
func (c *Client) Field(ctx context.Context) (err error) { // want Field:`^ctxIO\(0\) retries\(x4: loop x4\) outbound$`
	for i := 0; i < c.max; i++ {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// Countdown counts down from 3.
func (c *Client) Countdown(ctx context.Context) (err error) { // want Countdown:`^ctxIO\(0\) retries\(x3: loop x3\) outbound$`
	for n := 3; n > 0; n-- {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// ExitAfter leaves on a counter checked after the call: 5 attempts.
func (c *Client) ExitAfter(ctx context.Context) error { // want ExitAfter:`^ctxIO\(0\) retries\(x5: loop x5\) outbound$`
	for attempt := 1; ; attempt++ {
		err := c.Get(ctx)
		if err == nil {
			return nil
		}
		if attempt == 5 {
			return err
		}
		wait(ctx)
	}
}

// ExitBefore checks the counter before the call: 2 attempts.
func (c *Client) ExitBefore(ctx context.Context) error { // want ExitBefore:`^ctxIO\(0\) retries\(x2: loop x2\) outbound$`
	var err error
	for i := 0; ; i++ {
		if i >= 2 {
			return err
		}
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
}

// Runtime is unknown: the bound is a parameter, reported as such.
func (c *Client) Runtime(ctx context.Context, n int) (err error) { // want Runtime:`^ctxIO\(0\) retries\(x\?: loop x\?\) outbound$`
	for i := 0; i < n; i++ {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// Nested: a loop of 2 around Field's 4.
func (c *Client) Nested(ctx context.Context) (err error) { // want Nested:`^ctxIO\(0\) retries\(x8: loop x2 > loop x4\) outbound$`
	for i := 0; i < 2; i++ {
		if err = c.Field(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// Helper retries what it is given n times: a retried parameter whose
// count is parameter 0.
func Helper(n int, op func() error) (err error) { // want Helper:`^calls\(1,x∞\) retriesParam\(1: loop x\?, count p0\)$`
	for i := 0; i < n; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Wrapped hands a closure calling its parameter to the runtime's layer.
func Wrapped(ctx context.Context, op func(context.Context) error) error { // want Wrapped:`^ctxIO\(0\) calls\(1,x1\) retriesParam\(1: retry.Do x3 yields\)$`
	return retry.Do(ctx, nil, func(ctx context.Context) error { return op(ctx) })
}

// UsesHelper gives Helper a constant count: Helper's layer is 3 here.
func (c *Client) UsesHelper(ctx context.Context) error { // want UsesHelper:`^ctxIO\(0\) retries\(x3: loop x3\) outbound$`
	return Helper(3, func() error { return c.Get(ctx) })
}

// Library layers with their options.
func (c *Client) Libraries(ctx context.Context) error { // want Libraries:`^ctxIO\(0\) retries\(x∞: backoff.Retry x∞\) outbound$`
	_ = retrygo.Do(func() error { return c.Get(ctx) }, retrygo.Attempts(2))
	return backoff.Retry(func() error { return c.Get(ctx) }, backoff.NewExponentialBackOff())
}

// Disabled layers are no layers: only outbound work is left.
func (c *Client) Disabled(ctx context.Context) error { // want Disabled:`^ctxIO\(0\) outbound$`
	_ = retrygo.Do(func() error { return c.Get(ctx) }, retrygo.Attempts(1))
	return backoff.Retry(func() error { return c.Get(ctx) }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 0))
}

// RuntimeNested: runtime layers inside each other yield.
func (c *Client) RuntimeNested(ctx context.Context) error { // want RuntimeNested:`^ctxIO\(0\) retries\(x3: retry.Do x3 yields > retry.Do x3 yields\) outbound$`
	return retry.Do(ctx, nil, func(ctx context.Context) error {
		return retry.Do(ctx, nil, c.Get)
	})
}

// TwoPaths retries with the runtime on one path and in a loop on the
// other: inside a caller's runtime layer the runtime path yields, so the
// loop path is the one that multiplies there.
func (c *Client) TwoPaths(ctx context.Context, fast bool) (err error) { // want TwoPaths:`^ctxIO\(0\) retries\(x5: retry.Do x5 yields\) underRuntime\(loop x3\) outbound$`
	if fast {
		return retry.Do(ctx, &retry.Policy{MaxAttempts: 5}, c.Get)
	}
	for i := 0; i < 3; i++ {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// Retryable: a retrying client's call is a layer of its own.
func Retryable(url string) error { // want Retryable:`^retries\(x5: retryablehttp.Client.Get x5\) outbound$`
	_, err := retryablehttp.NewClient().Get(url)
	return err
}

// Local work tried again is no layer.
func Local(parse func(string) error, s string) error { // want Local:`^calls\(0,x∞\) retriesParam\(0: loop x∞\)$`
	for {
		if err := parse(s); err == nil {
			return nil
		}
		s = s[1:]
		if s == "" {
			return errors.New("no parse")
		}
	}
}

func wait(ctx context.Context) { // want wait:`^ctxIO\(0\)$`
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Pull draws on the backoff object it is given: its layer names the
// parameter, so a caller drawing on the same object shares the budget.
func (c *Client) Pull(ctx context.Context, b backoff.BackOff) error { // want Pull:`^ctxIO\(0\) retries\(x∞: loop x∞ backoff p1\) outbound$`
	for {
		err := c.Get(ctx)
		if err == nil {
			return nil
		}
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		time.Sleep(d)
	}
}

// PullTwice shares Pull's object, limited to two retries: one budget,
// of 3 attempts.
func (c *Client) PullTwice(ctx context.Context, b backoff.BackOff) error { // want PullTwice:`^ctxIO\(0\) retries\(x3: loop x3 backoff p1 > loop x∞ backoff p1\) outbound$`
	limited := backoff.WithMaxRetries(b, 2)
	for {
		err := c.Pull(ctx, limited)
		if err == nil {
			return nil
		}
		d := limited.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		time.Sleep(d)
	}
}

// Captured counts in a variable a deferred closure reads: kept in memory,
// the count is not followed, and is unknown rather than unbounded.
func (c *Client) Captured(ctx context.Context, disabled bool) error { // want Captured:`^ctxIO\(0\) retries\(x\?: loop x\?\) outbound$`
	var tries uint8
	defer func() { observe(int(tries)) }()
	var err error
	max := uint8(c.max)
	if disabled {
		max = 0
	}
	for tries = 0; tries <= max; tries++ {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

func observe(int) {}

type pool struct{ c *Client }

type conn struct{ c *Client }

func (p *pool) take(ctx context.Context) (*conn, error) { // want take:`^ctxIO\(0\) outbound$`
	return &conn{p.c}, p.c.Get(ctx)
}

func (cn *conn) ping(ctx context.Context) error { return cn.c.Get(ctx) } // want ping:`^ctxIO\(0\) outbound$`

func (cn *conn) destroy() {}

func (cn *conn) ready() *conn { return cn }

// Checked walks a pool's connections, pinging each once and handing out
// the first that answers: picking, not retrying.
func Checked(ctx context.Context, p *pool, max int32, timeout time.Duration) (*conn, error) { // want Checked:`^ctxIO\(0\) outbound$`
	for range int(max) + 1 {
		cn, err := p.take(ctx)
		if err != nil {
			return nil, err
		}
		err = func() error {
			pingCtx := ctx
			if timeout > 0 {
				var cancel context.CancelFunc
				pingCtx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			return cn.ping(pingCtx)
		}()
		if err != nil {
			cn.destroy()
			continue
		}
		return cn.ready(), nil
	}
	return nil, errors.New("no connection answers")
}

// Redial takes a connection again when taking one failed: a retry.
func Redial(ctx context.Context, p *pool) (*conn, error) { // want Redial:`^ctxIO\(0\) retries\(x3: loop x3\) outbound$`
	var err error
	for range 3 {
		var cn *conn
		if cn, err = p.take(ctx); err == nil {
			return cn, nil
		}
		wait(ctx)
	}
	return nil, err
}

// NamedDeferred retries with a named result kept in memory because of
// the deferred closure.
func (c *Client) NamedDeferred(ctx context.Context) (err error) { // want NamedDeferred:`^ctxIO\(0\) retries\(x3: loop x3\) outbound$`
	defer func() { observe(0) }()
	for range 3 {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// API is built like GitLab's client: a retrying client made with 5
// retries, which an option may change, copied per request when asked.
type API struct {
	client *retryablehttp.Client
}

func NewAPI(opts ...func(*API)) *API {
	a := &API{client: &retryablehttp.Client{RetryMax: 5}}
	for _, o := range opts {
		o(a)
	}
	return a
}

// WithRetryMax changes the count at run time; the default stands here.
func WithRetryMax(n int) func(*API) {
	return func(a *API) { a.client.RetryMax = n }
}

func (a *API) copyClient() *retryablehttp.Client { // want copyClient:`^client\(retryablehttp.Client x6\)$`
	return &retryablehttp.Client{RetryMax: a.client.RetryMax}
}

// Do sends with the client or its copy: 6 attempts by default.
func (a *API) Do(req *retryablehttp.Request, fresh bool) error { // want Do:`^effects\(sends\(0\), sends\(0\) through retryablehttp.Client.Do \(6 attempts\)\) retries\(x6: retryablehttp.Client.Do x6\) outbound$`
	client := a.client
	if fresh {
		client = a.copyClient()
	}
	_, err := client.Do(req)
	return err
}
