// Package bounded has helpers that bound the work they do. A helper that
// makes its own context with a deadline still drops an HTTP request's (a
// handler with 200 ms left waits its full 8 s: the deadline must travel
// with the request); under any other context (start-up, a background
// loop) it is a deliberate detachment with a bound of its own, as a root
// bounded where it is made in the caller is. A new context handed to a
// callee that caps the wait itself drops the caller's; a plain call
// bounded by its own timeouts (a client with Timeout,
// dns.Client.Exchange) drops nothing.
package bounded

import (
	"context"
	"net/http"
	"time"

	"github.com/miekg/dns"
)

var client = &http.Client{}

// check makes its own context, with a deadline.
func check(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// checkForever makes one without.
func checkForever(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type Limiter struct{ sem chan struct{} }

// Take waits at most five seconds for a slot, whatever it is given.
func (l *Limiter) Take(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	select {
	case l.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func ServeCheck(w http.ResponseWriter, r *http.Request) {
	check("http://spam/check") // want `call to bounded.check drops the caller's context`
}

func Handle(ctx context.Context, l *Limiter) {
	check("http://spam/check")        // ok: not a request's context, and check bounds its own
	checkForever("http://spam/check") // want `call to bounded.checkForever drops the caller's context`
	l.Take(context.Background())      // want `context.Background\(\) passed to bounded.Limiter.Take while ctx is available`
}

type Resolver struct{}

// Get waits for a lookup done elsewhere; GetContext gives up with ctx.
func (r *Resolver) Get() (string, error) { return r.GetContext(context.Background()) }

func (r *Resolver) GetContext(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	default:
		return "host", nil
	}
}

// addHeaders fills an outgoing request: its context is whatever the
// builder gave it, not a caller's, and nothing here is reported.
func addHeaders(req *http.Request, rdns *Resolver) {
	req.Header.Add("Queue-ID", "1")
	if name, err := rdns.Get(); err == nil {
		req.Header.Add("Hostname", name)
	}
}

// authorize serves a request: its context is the caller's.
func authorize(req *http.Request, rdns *Resolver) {
	req.Header.Set("X-User", "u")
	if _, err := req.Context().Value("k").(string); err {
		return
	}
	rdns.Get() // want `bounded.Resolver.Get ignores the caller's context while req.Context\(\) is available`
}

// shouldTransfer asks the primary with a dns.Client, which bounds its own
// exchange: calling it loses no bound.
func shouldTransfer(primary string) bool {
	c := new(dns.Client)
	_, _, err := c.Exchange(&dns.Msg{}, primary)
	return err == nil
}

func Notify(ctx context.Context) {
	shouldTransfer("10.0.0.1:53")
}

var postmark = &http.Client{Timeout: 8 * time.Second}

// score posts on a client with Timeout: its non-Context call is bounded.
func score(body string) error {
	resp, err := postmark.Post("https://spamcheck.postmarkapp.com/filter", "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// scoreAnywhere posts on http.DefaultClient: no bound, and no context.
func scoreAnywhere(body string) error {
	resp, err := http.DefaultClient.Post("https://spamcheck.example.com/filter", "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Check(ctx context.Context) {
	score("x")
	scoreAnywhere("x") // want `call to bounded.scoreAnywhere drops the caller's context: it calls http.Client.Post`
}

// copyTrace stands in for a tracing helper that copies the span of src
// into dst.
func copyTrace(dst, src context.Context) context.Context { return dst }

// forward lets in-flight work finish after its caller returns, with a
// bound of its own: a deliberate detachment, the root bounded where it is
// made through the tracing helper.
func forward(ctx context.Context, l *Limiter) error {
	fctx, cancel := context.WithTimeout(copyTrace(context.Background(), ctx), 5*time.Second)
	defer cancel()
	return l.Take(fctx)
}

// forwardRequest does the same on an HTTP request's path: reported.
func forwardRequest(w http.ResponseWriter, r *http.Request, l *Limiter) error {
	fctx, cancel := context.WithTimeout(copyTrace(context.Background(), r.Context()), 5*time.Second) // want `context.Background\(\) passed to bounded.Limiter.Take while r.Context\(\) is available`
	defer cancel()
	return l.Take(fctx)
}
