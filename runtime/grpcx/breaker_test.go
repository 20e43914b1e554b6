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
	"google.golang.org/grpc/status"
)

// smallBreakers is a group whose breakers judge after 4 calls, open at
// half of them failing and cool down for a minute of the fake clock clk.
func smallBreakers(clk *clocktest.Clock) *breaker.Group {
	return breaker.NewGroup(0, func(string) breaker.Settings {
		return breaker.Settings{WindowSize: 4, MinCalls: 4, Cooldown: time.Minute, CooldownJitter: -1, Probes: 1, Clock: clk}
	})
}

// answering is a unary handler that fails with code (OK: succeeds),
// counting its calls.
type answering struct {
	code  atomic.Uint32
	calls atomic.Int32
}

func (a *answering) handle(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	a.calls.Add(1)
	if c := codes.Code(a.code.Load()); c != codes.OK {
		return nil, status.Error(c, "answer")
	}
	return reply("ok"), nil
}

// TestBreakerOpensOnUnavailableAndRetryDoesNotRetryIt: Unavailable opens
// the circuit; the refusal is Unavailable, breaker.ErrOpen, not sent, and
// not retried; after the cooldown a probe's success closes it.
func TestBreakerOpensOnUnavailableAndRetryDoesNotRetryIt(t *testing.T) {
	clk := clocktest.New(time.Unix(1e9, 0))
	group := smallBreakers(clk)
	a := &answering{}
	a.code.Store(uint32(codes.Unavailable))
	var retries atomic.Int32
	policy := fastPolicy(3, nil)
	policy.OnRetry = func(int, error, time.Duration) { retries.Add(1) }
	c := start(t, &service{unary: a.handle}, nil, unary(
		grpcx.UnaryRetry(grpcx.RetryOptions{Policy: policy}),
		grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: group}),
	))
	ctx := context.Background()
	// 3 attempts, then 1 more opens the circuit; the call's next attempt
	// is refused and not retried.
	for range 2 {
		c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	}
	if n := a.calls.Load(); n != 4 {
		t.Fatalf("the server got %d calls, want 4 before the circuit opened", n)
	}
	if n := retries.Load(); n != 3 {
		t.Errorf("%d retries, want 3: two after failures of the first call, one of the second, none after the refusal", n)
	}
	_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Unavailable || !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("open circuit: %v", err)
	}
	if n := a.calls.Load(); n != 4 || retries.Load() != 3 {
		t.Errorf("an open circuit sent %d calls and retried %d times", n-4, retries.Load()-3)
	}
	if st := group.Get("passthrough:///bufnet").State(); st != breaker.Open {
		t.Errorf("the target's breaker is %v", st)
	}
	a.code.Store(uint32(codes.OK))
	clk.Advance(time.Minute)
	if _, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatalf("the probe after the cooldown: %v", err)
	}
	if st := group.Get("passthrough:///bufnet").State(); st != breaker.Closed {
		t.Errorf("after a successful probe the breaker is %v", st)
	}
}

// TestBreakerCountsAnswersAsSuccesses: NotFound and the other answers on
// the merits never open the circuit.
func TestBreakerCountsAnswersAsSuccesses(t *testing.T) {
	group := smallBreakers(clocktest.New(time.Unix(1e9, 0)))
	a := &answering{}
	c := start(t, &service{unary: a.handle}, nil, unary(grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: group})))
	for _, code := range []codes.Code{codes.NotFound, codes.InvalidArgument, codes.PermissionDenied, codes.FailedPrecondition, codes.AlreadyExists, codes.NotFound, codes.NotFound, codes.NotFound} {
		a.code.Store(uint32(code))
		c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	}
	m := group.Get("passthrough:///bufnet").Metrics()
	if m.State != breaker.Closed || m.FailureRate != 0 || m.Calls != 4 {
		t.Errorf("after 8 client errors: %+v", m)
	}
	if n := a.calls.Load(); n != 8 {
		t.Errorf("the server got %d calls, want 8", n)
	}
}

// TestBreakerIgnoresTheCallersDeadlineButNotTheAttempts: the caller's
// own deadline says nothing of the dependency; an attempt's timeout
// does.
func TestBreakerIgnoresTheCallersDeadlineButNotTheAttempts(t *testing.T) {
	group := smallBreakers(clocktest.New(time.Unix(1e9, 0)))
	slow := func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	// The attempt timeout runs on a fake clock an hour ahead of the wall
	// clock: the caller's deadline (wall clock) comes first, and the
	// attempt's only when the test advances the fake clock.
	clk := clocktest.New(time.Now().Add(time.Hour))
	c := start(t, &service{unary: slow}, nil, unary(
		grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: group, Key: grpcx.ByMethod}),
		grpcx.UnaryAttemptTimeout(50*time.Millisecond, clk),
	))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	cancel()
	m := group.Get("passthrough:///bufnet" + unaryCall).Metrics()
	if m.Calls != 0 {
		t.Errorf("the caller's deadline was counted: %+v", m)
	}
	go func() {
		waitFor(func() bool { return clk.PendingTimers() == 1 })
		clk.Advance(50 * time.Millisecond)
	}()
	c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	m = group.Get("passthrough:///bufnet" + unaryCall).Metrics()
	if m.Calls != 1 || m.FailureRate != 1 {
		t.Errorf("the attempt's timeout was not a failure: %+v", m)
	}
}

// TestBreakerPerMethod: with ByMethod, a failing method's circuit opens
// and the others' stay closed.
func TestBreakerPerMethod(t *testing.T) {
	group := smallBreakers(clocktest.New(time.Unix(1e9, 0)))
	a := &answering{}
	a.code.Store(uint32(codes.Internal))
	var empties atomic.Int32
	svc := &service{unary: a.handle, empty: func(context.Context, *testgrpc.Empty) (*testgrpc.Empty, error) {
		empties.Add(1)
		return &testgrpc.Empty{}, nil
	}}
	c := start(t, svc, nil, unary(grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: group, Key: grpcx.ByMethod})))
	for range 5 {
		c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	}
	if _, err := c.EmptyCall(context.Background(), &testgrpc.Empty{}); err != nil {
		t.Errorf("another method's circuit: %v", err)
	}
	if a.calls.Load() != 4 || empties.Load() != 1 {
		t.Errorf("UnaryCall sent %d (want 4), EmptyCall %d (want 1)", a.calls.Load(), empties.Load())
	}
}

// TestStreamBreaker: a stream's outcome is its first response or its
// end; failing streams open the circuit and a refused stream is not
// opened, nor retried.
func TestStreamBreaker(t *testing.T) {
	group := smallBreakers(clocktest.New(time.Unix(1e9, 0)))
	var opened atomic.Int32
	var fail atomic.Bool
	svc := &service{output: func(_ *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		opened.Add(1)
		if fail.Load() {
			return status.Error(codes.Unavailable, "down")
		}
		return s.Send(&testgrpc.StreamingOutputCallResponse{Payload: payload("x")})
	}}
	var retries atomic.Int32
	policy := fastPolicy(3, nil)
	policy.OnRetry = func(int, error, time.Duration) { retries.Add(1) }
	c := start(t, svc, nil, streams(
		grpcx.StreamRetry(grpcx.RetryOptions{Policy: policy}),
		grpcx.StreamBreaker(grpcx.BreakerOptions{Breakers: group}),
	))
	drain(t, c, context.Background())
	b := group.Get("passthrough:///bufnet")
	if m := b.Metrics(); m.Calls != 1 || m.FailureRate != 0 {
		t.Errorf("a good stream: %+v", m)
	}
	fail.Store(true)
	drain(t, c, context.Background()) // 3 failing attempts: 3 of 4 calls failed
	if b.State() != breaker.Open {
		t.Fatalf("breaker %v after failing streams", b.State())
	}
	before, retried := opened.Load(), retries.Load()
	_, err := c.StreamingOutputCall(context.Background(), &testgrpc.StreamingOutputCallRequest{})
	if status.Code(err) != codes.Unavailable || !errors.Is(err, breaker.ErrOpen) {
		t.Errorf("open circuit: %v", err)
	}
	if opened.Load() != before || retries.Load() != retried {
		t.Error("an open circuit opened a stream, or was retried")
	}
}

// TestStatusClassifierDoesNotRetryTheOpenCircuit: a Retryable of the
// user's that retries Unavailable, in front of UnaryBreaker, does not
// retry the breaker's refusal (Unavailable too) nor wait out its
// cooldown.
func TestStatusClassifierDoesNotRetryTheOpenCircuit(t *testing.T) {
	clk := clocktest.New(time.Unix(1e9, 0))
	group := smallBreakers(clk)
	a := &answering{}
	a.code.Store(uint32(codes.Unavailable))
	rec := new(sleeps)
	policy := fastPolicy(4, rec)
	policy.Retryable = func(err error) bool { return status.Code(err) == codes.Unavailable }
	c := start(t, &service{unary: a.handle}, nil, unary(
		grpcx.UnaryRetry(grpcx.RetryOptions{Policy: policy}),
		grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: group}),
	))
	// 4 failed attempts open the circuit (WindowSize 4).
	_, _ = c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if st := group.Get("passthrough:///bufnet").State(); st != breaker.Open {
		t.Fatalf("after 4 failures the breaker is %v", st)
	}
	before := len(rec.all())
	_, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Unavailable || !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("open circuit: %v", err)
	}
	if slept := rec.all()[before:]; len(slept) != 0 {
		t.Fatalf("the refusal was retried after %v (the cooldown is a minute)", slept)
	}
}
