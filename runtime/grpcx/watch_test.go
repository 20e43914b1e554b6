package grpcx_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// watchService answers a stream with its header at once and its first
// message only when release is closed, as a watch stream with no event
// yet does; with fail set it fails streams with Unavailable at once.
type watchService struct {
	release chan struct{}
	fail    atomic.Bool
	opened  atomic.Int32
}

func (w *watchService) service() *service {
	return &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		w.opened.Add(1)
		if w.fail.Load() {
			return status.Error(codes.Unavailable, "down")
		}
		if err := s.SendHeader(metadata.Pairs("watching", "yes")); err != nil {
			return err
		}
		select {
		case <-w.release:
		case <-s.Context().Done():
			return s.Context().Err()
		}
		return outputOf(req, s, 1)
	}}
}

// waitFor polls cond for up to 5 s of real time: what the test waits for
// happens on gRPC's goroutines.
func waitFor(cond func() bool) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// TestSetupTimeoutEndsAtTheHeader: a watch stream whose server sent its
// header at once and its first event long after the setup timeout is not
// cancelled, though the caller (a generated stub) never calls Header.
func TestSetupTimeoutEndsAtTheHeader(t *testing.T) {
	clk := clocktest.New(time.Now())
	w := &watchService{release: make(chan struct{})}
	c := start(t, w.service(), nil, streams(grpcx.StreamSetupTimeout(50*time.Millisecond, clk)))
	s, err := c.StreamingOutputCall(context.Background(), outputRequest("event", 1))
	if err != nil {
		t.Fatal(err)
	}
	if !waitFor(func() bool { return clk.PendingTimers() == 0 }) {
		t.Error("the setup timer still runs after the server's header arrived")
	}
	clk.Advance(time.Minute) // the first event comes long after the setup timeout
	close(w.release)
	if got, err := readAll(s.Recv); err != nil || len(got) != 1 {
		t.Fatalf("read %q, %v; want the event: the server answered in time", got, err)
	}
}

// TestSetupTimeoutOnTheFakeClock: a stream whose server sends nothing is
// cancelled when the setup timeout passes on the interceptor's clock, and
// StreamRetry opens it again.
func TestSetupTimeoutOnTheFakeClock(t *testing.T) {
	clk := clocktest.New(time.Now())
	var opened atomic.Int32
	svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		if opened.Add(1) == 1 {
			<-s.Context().Done() // hangs until the client gives up
			return s.Context().Err()
		}
		return outputOf(req, s, 2)
	}}
	c := start(t, svc, nil, streams(
		grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)}),
		grpcx.StreamSetupTimeout(100*time.Millisecond, clk),
	))
	// open opens a stream and waits until the server has it and the
	// client's setup timer runs.
	open := func(c testgrpc.TestServiceClient) testgrpc.TestService_StreamingOutputCallClient {
		t.Helper()
		s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 2))
		if err != nil {
			t.Fatal(err)
		}
		if !waitFor(func() bool { return opened.Load() == 1 && clk.PendingTimers() == 1 }) {
			t.Fatal("the stream did not open with its setup timer")
		}
		return s
	}
	s := open(c)
	clk.Advance(99 * time.Millisecond)
	if opened.Load() != 1 {
		t.Fatal("the stream was given up before its setup timeout")
	}
	clk.Advance(time.Millisecond)
	if got, err := readAll(s.Recv); err != nil || len(got) != 2 {
		t.Fatalf("read %q, %v", got, err)
	}
	if n := opened.Load(); n != 2 {
		t.Errorf("%d streams, want 2", n)
	}

	opened.Store(0)
	c2 := start(t, svc, nil, streams(grpcx.StreamSetupTimeout(50*time.Millisecond, clk)))
	s2 := open(c2)
	clk.Advance(50 * time.Millisecond)
	if _, err := readAll(s2.Recv); status.Code(err) != codes.DeadlineExceeded || !grpcx.Retryable(err) {
		t.Errorf("setup timeout: %v", err)
	}
}

// TestStreamBreakerProbeEndsAtTheHeader: a half-open circuit's probe is a
// watch stream whose server answers with its header and has no event
// yet: the header is the dependency's answer, so the probe succeeds at
// once and the circuit closes, rather than holding the probe slot until
// an event comes.
func TestStreamBreakerProbeEndsAtTheHeader(t *testing.T) {
	clk := clocktest.New(time.Now())
	group := breaker.NewGroup(0, func(string) breaker.Settings {
		return breaker.Settings{WindowSize: 2, MinCalls: 2, Cooldown: time.Minute, CooldownJitter: -1, Probes: 1, Clock: clk}
	})
	w := &watchService{release: make(chan struct{})}
	c := start(t, w.service(), nil, streams(grpcx.StreamBreaker(grpcx.BreakerOptions{Breakers: group})))
	w.fail.Store(true)
	for range 2 {
		s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 1))
		if err == nil {
			_, _ = readAll(s.Recv)
		}
	}
	b := group.Get("passthrough:///bufnet")
	if b.State() != breaker.Open {
		t.Fatalf("breaker %v after two failed streams", b.State())
	}
	clk.Advance(time.Minute)
	w.fail.Store(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.StreamingOutputCall(ctx, outputRequest("x", 1)); err != nil {
		t.Fatalf("the probe: %v", err)
	}
	if !waitFor(func() bool { return b.State() == breaker.Closed }) {
		t.Fatalf("breaker %v while the probe waits for its first event with the header received; want closed", b.State())
	}
	s, err := c.StreamingOutputCall(ctx, outputRequest("x", 1))
	if err != nil || errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("a stream after the probe's header: %v", err)
	}
	close(w.release)
	if got, err := readAll(s.Recv); err != nil || len(got) != 1 {
		t.Fatalf("read %q, %v", got, err)
	}
}
