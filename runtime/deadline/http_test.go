package deadline_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

type recordingTransport struct {
	got   *http.Request
	calls int
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.got, r.calls = req, r.calls+1
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
}

type closeCounter struct {
	io.Reader
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

func TestTransportSendsBudget(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	base := &recordingTransport{}
	tr := &deadline.Transport{Base: base, Reserve: 100 * time.Millisecond, Clock: fake}
	ctx := withDeadline(t, context.Background(), fake, 1500*time.Millisecond)
	req := httptestRequest(t, ctx)
	if _, err := tr.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if got := base.got.Header.Get(deadline.Header); got != "1400" {
		t.Fatalf("%s = %q; want 1400", deadline.Header, got)
	}
	if req.Header.Get(deadline.Header) != "" {
		t.Fatal("Transport modified the caller's request")
	}

	// No deadline: sent unchanged.
	req = httptestRequest(t, context.Background())
	if _, err := tr.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if base.got != req || base.got.Header.Get(deadline.Header) != "" {
		t.Fatal("a request without a deadline must be sent as is")
	}
}

func TestTransportRefusesSpentBudget(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	for _, tc := range []struct {
		left time.Duration
		want error
	}{
		{50 * time.Millisecond, deadline.ErrInsufficient},
		// Under a millisecond after the reserve: the header would say 0,
		// which the server's Middleware answers with 504.
		{100*time.Millisecond + 999*time.Microsecond, deadline.ErrInsufficient},
		{-time.Millisecond, deadline.ErrExpired},
	} {
		base := &recordingTransport{}
		tr := &deadline.Transport{Base: base, Reserve: 100 * time.Millisecond, Clock: fake}
		req := httptestRequest(t, withDeadline(t, context.Background(), fake, tc.left))
		body := &closeCounter{Reader: strings.NewReader("x")}
		req.Body = body
		_, err := tr.RoundTrip(req)
		if !errors.Is(err, tc.want) {
			t.Errorf("left %v: err = %v; want %v", tc.left, err, tc.want)
		}
		if base.calls != 0 {
			t.Errorf("left %v: the request was sent", tc.left)
		}
		if body.closed != 1 {
			t.Errorf("left %v: body closed %d times; want 1", tc.left, body.closed)
		}
	}
}

func TestMiddleware(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	var seen time.Duration
	var called bool
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		called = true
		seen = -1
		if d, ok := r.Context().Deadline(); ok {
			seen = d.Sub(fake.Now())
		}
	})
	opts := deadline.ServerOptions{Default: 2 * time.Second, Max: 10 * time.Second, Clock: fake}
	h := deadline.Middleware(next, opts)
	for _, tc := range []struct {
		name, header string
		want         time.Duration // -1: no deadline
		status       int
	}{
		{"caller's budget", "750", 750 * time.Millisecond, http.StatusOK},
		{"edge default when absent", "", 2 * time.Second, http.StatusOK},
		{"malformed is absent", "soon", 2 * time.Second, http.StatusOK},
		{"negative is absent", "-5", 2 * time.Second, http.StatusOK},
		{"capped", "3600000", 10 * time.Second, http.StatusOK},
		{"spent", "0", 0, http.StatusGatewayTimeout},
	} {
		called, seen = false, 0
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if tc.header != "" {
			req.Header.Set(deadline.Header, tc.header)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("%s: status %d; want %d", tc.name, rec.Code, tc.status)
		}
		if tc.status != http.StatusOK {
			if called {
				t.Errorf("%s: next was called for a spent budget", tc.name)
			}
			continue
		}
		if seen != tc.want {
			t.Errorf("%s: handler deadline in %v; want %v", tc.name, seen, tc.want)
		}
	}

	// A deadline the server already has is never extended.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req = req.WithContext(withDeadline(t, req.Context(), fake, 300*time.Millisecond))
	req.Header.Set(deadline.Header, "5000")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if seen != 300*time.Millisecond {
		t.Fatalf("handler deadline in %v; want the earlier 300ms", seen)
	}

	// Zero options: no header, no deadline.
	called, seen = false, 0
	deadline.Middleware(next, deadline.ServerOptions{Clock: fake}).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if !called || seen != -1 {
		t.Fatalf("zero options set a deadline (%v)", seen)
	}
}

// TestEndToEnd sends a request through a real HTTP server: the handler's
// deadline is the client's remaining time minus the reserve, give or take
// the time the hop took.
func TestEndToEnd(t *testing.T) {
	leaktest.Check(t)
	got := make(chan time.Duration, 1)
	srv := httptest.NewServer(deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := r.Context().Deadline()
		got <- time.Until(d)
	}), deadline.ServerOptions{}))
	defer srv.Close()
	client := &http.Client{Transport: &deadline.Transport{Base: srv.Client().Transport, Reserve: 200 * time.Millisecond}}
	defer client.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	left := <-got
	if left > 1800*time.Millisecond || left < 1300*time.Millisecond {
		t.Fatalf("server saw %v left; want about 1.8s (2s minus the 200ms reserve, minus the hop)", left)
	}
}

func httptestRequest(t *testing.T, ctx context.Context) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://dependency.internal/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func FuzzMiddlewareHeader(f *testing.F) {
	for _, s := range []string{"", "0", "1", "750", "-1", "9223372036854775807", "1e3", " 12 ", "０"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var seen time.Duration = -1
		h := deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if d, ok := r.Context().Deadline(); ok {
				seen = time.Until(d)
			}
		}), deadline.ServerOptions{Max: time.Minute})
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header[deadline.Header] = []string{v}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusGatewayTimeout {
			t.Fatalf("status %d for %q", rec.Code, v)
		}
		if seen > time.Minute {
			t.Fatalf("budget %q exceeded Max: %v", v, seen)
		}
		if ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && ms > 0 && ms < 60000 && rec.Code == http.StatusOK && seen > time.Duration(ms)*time.Millisecond {
			t.Fatalf("budget %q gave a later deadline %v", v, seen)
		}
	})
}
