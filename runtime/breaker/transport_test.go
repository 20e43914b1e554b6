package breaker_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// statusServer answers every request with the status it holds and counts
// the requests.
func statusServer(t *testing.T, code int) (srv *httptest.Server, status, hits *atomic.Int64) {
	status, hits = new(atomic.Int64), new(atomic.Int64)
	status.Store(int64(code))
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(int(status.Load()))
	}))
	t.Cleanup(srv.Close)
	return srv, status, hits
}

func get(client *http.Client, url string) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil
}

func TestTransport(t *testing.T) {
	leaktest.Check(t)
	srv, status, hits := statusServer(t, http.StatusNotFound)
	fake := clock.NewFake(time.Unix(1e9, 0))
	g := breaker.NewGroup(0, func(string) breaker.Settings {
		return breaker.Settings{MinCalls: 3, WindowSize: 3, Cooldown: time.Hour, Clock: fake}
	})
	client := &http.Client{Transport: &breaker.Transport{Base: srv.Client().Transport, Breakers: g}}
	defer client.CloseIdleConnections()

	for range 5 {
		if err := get(client, srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	if g.Get(strings.TrimPrefix(srv.URL, "http://")).State() != breaker.Closed {
		t.Fatal("4xx responses opened the circuit")
	}
	status.Store(http.StatusServiceUnavailable)
	for range 3 {
		get(client, srv.URL)
	}
	before := hits.Load()
	err := get(client, srv.URL)
	if !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("err = %v; want the open-circuit error", err)
	}
	var oe *breaker.OpenError
	if !errors.As(err, &oe) || oe.RetryAfter() <= 0 {
		t.Fatalf("the error must say when to retry: %v", err)
	}
	if hits.Load() != before {
		t.Fatal("a request was sent while the circuit was open")
	}
}

// TestZeroTransport: the zero Transport sends through
// http.DefaultTransport with a Group of its own, default Settings per
// host, created on first use, here by ten requests at once. Ten 503s (the
// default MinCalls) open the host's circuit, well within the default
// cooldown of 5 s.
func TestZeroTransport(t *testing.T) {
	leaktest.Check(t)
	srv, _, hits := statusServer(t, http.StatusServiceUnavailable)
	defer http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	client := &http.Client{Transport: &breaker.Transport{}}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if err := get(client, srv.URL); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := get(client, srv.URL); !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("err = %v after 10 failures; want the open-circuit error", err)
	}
	if hits.Load() != 10 {
		t.Fatalf("%d requests reached the server; want 10", hits.Load())
	}
}
