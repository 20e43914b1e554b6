package breaker_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

func TestGroupIsolatesKeysAndIsBounded(t *testing.T) {
	leaktest.Check(t)
	g := breaker.NewGroup(2, func(key string) breaker.Settings {
		return breaker.Settings{MinCalls: 1, WindowSize: 1}
	})
	a, b := g.Get("a"), g.Get("b")
	call(a, errDown)
	if a.State() != breaker.Open || b.State() != breaker.Closed {
		t.Fatal("one key's failures opened another key's circuit")
	}
	if g.Get("a") != a || a.Name() != "a" {
		t.Fatal("Get must return the same breaker, named after its key")
	}
	g.Get("c") // evicts b, the least recently used
	if g.Len() != 2 {
		t.Fatalf("group holds %d breakers; want at most 2", g.Len())
	}
	if g.Get("a") != a {
		t.Fatal("the recently used breaker was evicted")
	}
	if g.Get("b") == b {
		t.Fatal("the least recently used breaker was kept")
	}
}

func TestTransport(t *testing.T) {
	leaktest.Check(t)
	var hits atomic.Int64
	status := atomic.Int64{}
	status.Store(http.StatusServiceUnavailable)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	g := breaker.NewGroup(0, func(string) breaker.Settings {
		return breaker.Settings{MinCalls: 3, WindowSize: 3, Cooldown: time.Hour}
	})
	client := &http.Client{Transport: &breaker.Transport{Base: srv.Client().Transport, Breakers: g}}
	defer client.CloseIdleConnections()
	get := func() error {
		resp, err := client.Get(srv.URL)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil
	}

	status.Store(http.StatusNotFound)
	for range 5 {
		if err := get(); err != nil {
			t.Fatal(err)
		}
	}
	if g.Get(strings.TrimPrefix(srv.URL, "http://")).State() != breaker.Closed {
		t.Fatal("4xx responses opened the circuit")
	}
	status.Store(http.StatusServiceUnavailable)
	for range 3 {
		get()
	}
	before := hits.Load()
	err := get()
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
