package hedge_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// slowFirstServer takes the hedge delay on the fake clock over the first
// request (sending the hedge) then hangs it until its client gives up, and
// answers the others at once, echoing the request body.
func slowFirstServer(t *testing.T, fake *clock.Fake, delay time.Duration) (*httptest.Server, *atomic.Int64, *[]string) {
	var n atomic.Int64
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if n.Add(1) == 1 {
			fake.Advance(delay)
			<-r.Context().Done()
			return
		}
		io.WriteString(w, "answer to "+string(b))
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &bodies
}

func TestTransportHedgesGet(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	srv, n, _ := slowFirstServer(t, fake, 5*time.Millisecond)
	p := &hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake}
	client := &http.Client{Transport: &hedge.Transport{Base: srv.Client().Transport, Policy: p}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The hedge goes out only once the first copy has reached the
	// server, which hangs it: the hedge answers.
	m := p.Metrics()
	if err != nil || string(b) != "answer to " || n.Load() != 2 || m.Hedges != 1 || m.HedgeWins != 1 || m.LosersCancelled != 1 {
		t.Fatalf("body %q err %v requests %d metrics %+v", b, err, n.Load(), m)
	}
}

func TestTransportSendsPostOnce(t *testing.T) {
	leaktest.Check(t)
	var n atomic.Int64
	fake := newFake()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fake.Advance(time.Second) // well past the hedge delay
	}))
	defer srv.Close()
	p := &hedge.Policy{Delay: time.Millisecond, Clock: fake}
	client := &http.Client{Transport: &hedge.Transport{Base: srv.Client().Transport, Policy: p}}
	defer client.CloseIdleConnections()
	resp, err := client.Post(srv.URL, "text/plain", strings.NewReader("charge the card"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n.Load() != 1 || p.Metrics().Calls != 0 {
		t.Fatalf("%d requests, metrics %+v; a POST without an idempotency key must go once, unhedged", n.Load(), p.Metrics())
	}
}

// TestTransportReplaysBodyWithIdempotencyKey: each copy of a POST the
// server deduplicates carries the whole body.
func TestTransportReplaysBodyWithIdempotencyKey(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	srv, n, bodies := slowFirstServer(t, fake, 5*time.Millisecond)
	client := &http.Client{Transport: &hedge.Transport{Base: srv.Client().Transport, Policy: &hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake}}}
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader([]byte("order 42")))
	req.Header.Set(hedge.IdempotencyKeyHeader, "k-42")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "answer to order 42" || n.Load() != 2 {
		t.Fatalf("body %q after %d requests", b, n.Load())
	}
	for i, got := range *bodies {
		if got != "order 42" {
			t.Fatalf("copy %d sent body %q", i, got)
		}
	}
}

// TestTransportBodyWithoutGetBodyGoesOnce: a body that cannot be read
// twice is sent once, and closed as a RoundTripper must.
func TestTransportBodyWithoutGetBodyGoesOnce(t *testing.T) {
	leaktest.Check(t)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	tr := &hedge.Transport{Base: srv.Client().Transport, Policy: &hedge.Policy{Delay: time.Millisecond}}
	defer srv.Client().CloseIdleConnections()
	body := &closeRecorder{Reader: strings.NewReader("stream")}
	req, _ := http.NewRequest(http.MethodPut, srv.URL, body)
	req.GetBody = nil
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n.Load() != 1 || !body.closed.Load() {
		t.Fatalf("%d requests, body closed %v", n.Load(), body.closed.Load())
	}
}

func TestNewIdempotencyKey(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		k := hedge.NewIdempotencyKey()
		if len(k) != 26 {
			t.Fatalf("key %q has %d characters, want 26", k, len(k))
		}
		for _, r := range k {
			if !(r >= 'A' && r <= 'Z' || r >= '2' && r <= '7') {
				t.Fatalf("key %q has %q, not a base32 character", k, r)
			}
		}
		if seen[k] {
			t.Fatalf("key %q repeated", k)
		}
		seen[k] = true
	}
}
