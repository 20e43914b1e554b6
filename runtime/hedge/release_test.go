package hedge_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestWinnersResponseReadableAfterDo: the winning copy's context lives
// until its body is closed, so the caller can read a response Do returned
// (cancelling it at return breaks every body read after Do).
func TestWinnersResponseReadableAfterDo(t *testing.T) {
	leaktest.Check(t)
	var requests atomic.Int64
	fake := newFake()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			fake.Advance(5 * time.Millisecond) // the first copy is slow: the hedge goes out
			<-r.Context().Done()               // and it hangs until cancelled
			return
		}
		w.(http.Flusher).Flush()          // headers out, then the body later:
		time.Sleep(20 * time.Millisecond) // Do returns before it is read
		io.WriteString(w, "the body")
	}))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()

	p := &hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake}
	var winnerCtx context.Context
	resp, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err == nil {
			winnerCtx = ctx
		}
		return resp, err
	}))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "the body" {
		t.Fatalf("reading the winner's body after Do: %q, %v", body, err)
	}
	if winnerCtx.Err() != nil {
		t.Fatal("the winner's context was cancelled before its body was closed")
	}
	resp.Body.Close()
	if winnerCtx.Err() == nil {
		t.Fatal("closing the body did not release the winner's context")
	}
}

// closeRecorder is a body that records being closed.
type closeRecorder struct {
	io.Reader
	closed atomic.Bool
}

func (c *closeRecorder) Close() error { c.closed.Store(true); return nil }

// TestLosersResponseClosed: a copy that succeeds after another has won
// has its response body closed, not dropped with the connection held.
func TestLosersResponseClosed(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, Clock: fake}
	var n atomic.Int64
	bodies := []*closeRecorder{{Reader: strings.NewReader("first")}, {Reader: strings.NewReader("second")}}
	returned := make(chan struct{})
	resp, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (*http.Response, error) {
		i := n.Add(1) - 1
		if i == 0 {
			fake.Advance(time.Millisecond)
			<-ctx.Done() // cancelled when the hedge wins, answers anyway
			defer close(returned)
		}
		return &http.Response{StatusCode: 200, Body: bodies[i]}, nil
	}))
	<-returned
	if err != nil || resp == nil {
		t.Fatalf("resp %v err %v", resp, err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "second" {
		t.Fatalf("winner %q; want the hedge's response", b)
	}
	if !bodies[0].closed.Load() {
		t.Fatal("the losing response's body was not closed")
	}
	if bodies[1].closed.Load() {
		t.Fatal("the winning response's body was closed")
	}
}

// TestReleaseOverridesTheDefault: Op.Release receives losing values.
func TestReleaseOverridesTheDefault(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, Clock: fake}
	var n atomic.Int64
	released := make(chan int, 2)
	op := hedge.Idempotent(func(ctx context.Context) (int, error) {
		i := int(n.Add(1))
		if i == 1 {
			fake.Advance(time.Millisecond)
			<-ctx.Done()
		}
		return i, nil
	}).Release(func(v int) { released <- v })
	v, err := hedge.Do(context.Background(), p, op)
	if v != 2 || err != nil {
		t.Fatalf("v %d err %v", v, err)
	}
	select {
	case got := <-released:
		if got != 1 {
			t.Fatalf("released %d; want the loser's 1", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the losing value was never released")
	}
}
