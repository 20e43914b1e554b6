// Package hedges sends requests through hedging HTTP clients.
package hedges

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/cristalhq/hedgedhttp"

	"hedgeidem/clients"
)

func charge(ctx context.Context, url string, body []byte) error {
	hc, err := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := hc.Do(req) // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do, which sends a POST request without an Idempotency-Key header set before the send \(hedges.go:25\), so every copy may take effect; set an idempotency key header on the request, made once per operation, before the first send, or send it through a client that does not hedge`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// keyed sets the key before sending: every copy carries it.
func keyed(ctx context.Context, url string, key string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader("{}"))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = hc.Do(req)
	return err
}

// keyedMap sets the key through the header map.
func keyedMap(ctx context.Context, url string, key string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, _ := http.NewRequestWithContext(ctx, "PATCH", url, nil)
	req.Header["X-Idempotency-Key"] = []string{key}
	_, err := hc.Do(req)
	return err
}

// keyedLate sets the key only after the send: the copies went without.
func keyedLate(ctx context.Context, url string, key string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 2, http.DefaultClient)
	req, _ := http.NewRequestWithContext(ctx, "post", url, nil)
	_, err := hc.Do(req) // want `hedgedhttp.NewClient \(2 copies\) hedges http.Client.Do, which sends a POST request without an Idempotency-Key header`
	req.Header.Set("Idempotency-Key", key)
	return err
}

// reads are idempotent: GET, PUT, DELETE, and a POST to a search endpoint.
func reads(ctx context.Context, url string) {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequestWithContext(ctx, m, url, nil)
		hc.Do(req)
	}
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	hc.Do(get)
	put, _ := http.NewRequestWithContext(ctx, http.MethodPut, url+"/items/1", nil)
	hc.Do(put)
	search, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/orders/_search", nil)
	hc.Do(search)
	// Query protocols over POST: an OCSP status query, a DNS query.
	ocsp, _ := http.NewRequest("POST", url, strings.NewReader("der"))
	ocsp.Header.Add("Content-Type", "application/ocsp-request")
	hc.Do(ocsp)
	hc.Post(url, "application/dns-message; charset=binary", nil)
}

// transport hedges through a round tripper set as a client's Transport.
func transport(ctx context.Context, url string) error {
	rt, _ := hedgedhttp.NewRoundTripper(10*time.Millisecond, 4, http.DefaultTransport)
	c := &http.Client{Transport: rt, Timeout: time.Second}
	resp, err := c.Post(url, "application/json", nil) // want `hedgedhttp.NewRoundTripper \(4 copies\) hedges http.Client.Post, which sends a POST request with http.Client.Post, which cannot carry an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// config hedges with a client of hedgedhttp's own.
func config(ctx context.Context, url string) error {
	hc, _ := hedgedhttp.New(hedgedhttp.Config{Transport: http.DefaultTransport, Upto: 3, Delay: time.Millisecond})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := hc.Do(req) // want `hedgedhttp.New \(3 copies\) hedges hedgedhttp.Client.Do`
	return err
}

// elsewhere sends through clients another package built.
func elsewhere(ctx context.Context, url string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	clients.Hedged().Do(req)    // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do`
	clients.Shared.Do(req)      // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do`
	clients.NewAPI().HC.Do(req) // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do`
	http.DefaultClient.Do(req)  // not hedged
	(&http.Client{}).Post(url, "text/plain", nil)
}

// send sends whatever request its caller gives it through a hedging
// client: each caller's request decides.
func send(req *http.Request) error {
	_, err := clients.Shared.Do(req)
	return err
}

func callers(ctx context.Context, url string) {
	post, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	send(post) // want `hedgedhttp.NewClient \(3 copies\) hedges hedges.send, which sends a POST request without an Idempotency-Key header set before the send`
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	send(get)
}

// Default is the package's own exported hedging client.
var Default, _ = hedgedhttp.NewClient(80*time.Millisecond, 2, &http.Client{Timeout: time.Second})

func viaDefault(ctx context.Context, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := Default.Do(req) // want `hedgedhttp.NewClient \(2 copies\) hedges http.Client.Do`
	return err
}

// hedgedGiven sends through a client another package made hedge.
func hedgedGiven(ctx context.Context, url string) error {
	c, err := clients.WithHedging(&http.Client{Timeout: time.Second})
	if err != nil {
		return err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err = c.Do(req) // want `hedgedhttp.New \(3 copies\) hedges http.Client.Do`
	if err != nil {
		return err
	}
	rt, _ := clients.HedgedTransport(http.DefaultTransport)
	_, err = (&http.Client{Transport: rt}).Do(req) // want `hedgedhttp.New \(3 copies\) hedges http.Client.Do`
	return err
}
