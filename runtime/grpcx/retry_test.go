package grpcx_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// script is a unary handler that answers the n-th call (from 1) with
// the n-th error of errs (nil: success), and with success past them,
// recording the AttemptMetadata of each call.
type script struct {
	mu       sync.Mutex
	errs     []error
	trailers []metadata.MD // per call, optional
	attempts []string
}

func (s *script) handle(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	s.mu.Lock()
	n := len(s.attempts)
	s.attempts = append(s.attempts, attemptOf(ctx))
	var err error
	if n < len(s.errs) {
		err = s.errs[n]
	}
	if n < len(s.trailers) && s.trailers[n] != nil {
		grpc.SetTrailer(ctx, s.trailers[n])
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return reply("done"), nil
}

func (s *script) calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.attempts)
}

func unavailable() error { return status.Error(codes.Unavailable, "down") }

func scripted(t *testing.T, sc *script, dial ...grpc.DialOption) testgrpc.TestServiceClient {
	return start(t, &service{unary: sc.handle}, nil, dial...)
}

// TestRetryUnavailableUntilSuccess: Unavailable is retried, and each
// attempt tells the server its number.
func TestRetryUnavailableUntilSuccess(t *testing.T) {
	sc := &script{errs: []error{unavailable(), unavailable()}}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	resp, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if err != nil || body(resp) != "done" {
		t.Fatalf("got %v, %v", resp, err)
	}
	if got := sc.calls(); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("the server saw attempts %q, want 1, 2, 3", got)
	}
}

// TestRetryGivesUpKeepingTheStatus: after the last attempt the error
// keeps its code and says why retrying stopped.
func TestRetryGivesUpKeepingTheStatus(t *testing.T) {
	sc := &script{errs: []error{unavailable(), unavailable(), unavailable()}}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	_, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Unavailable || !errors.Is(err, retry.ErrAttemptsExhausted) || retry.Attempts(err) != 3 {
		t.Fatalf("got %v (attempts %d)", err, retry.Attempts(err))
	}
	if !retry.Transient(err) {
		t.Error("a retryable gRPC failure is not marked for retry layers that read marks")
	}
}

// TestNoRetryOnClientErrors: InvalidArgument, NotFound, PermissionDenied
// and the like fail the same way again: one attempt.
func TestNoRetryOnClientErrors(t *testing.T) {
	for _, c := range []codes.Code{codes.InvalidArgument, codes.NotFound, codes.PermissionDenied, codes.FailedPrecondition, codes.Internal, codes.Aborted, codes.ResourceExhausted} {
		t.Run(c.String(), func(t *testing.T) {
			sc := &script{errs: []error{status.Error(c, "no")}}
			cl := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
			_, err := cl.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
			if status.Code(err) != c {
				t.Fatalf("got %v", err)
			}
			if n := len(sc.calls()); n != 1 {
				t.Errorf("%d attempts, want 1", n)
			}
		})
	}
}

// TestOptionsRetryAbortedAndResourceExhausted: the options add the codes
// that the default classifier leaves alone.
func TestOptionsRetryAbortedAndResourceExhausted(t *testing.T) {
	sc := &script{errs: []error{status.Error(codes.Aborted, "conflict"), status.Error(codes.ResourceExhausted, "quota")}}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil), Aborted: true, ResourceExhausted: true})))
	if _, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if n := len(sc.calls()); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

// TestPushbackIsHonoured: ResourceExhausted with the server's pushback is
// retried after the pushback; a negative pushback stops retries of even
// Unavailable.
func TestPushbackIsHonoured(t *testing.T) {
	rec := new(sleeps)
	sc := &script{
		errs:     []error{status.Error(codes.ResourceExhausted, "slow down")},
		trailers: []metadata.MD{metadata.Pairs(grpcx.PushbackTrailer, "1500")},
	}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, rec)})))
	if _, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := rec.all(); !slices.Equal(got, []time.Duration{1500 * time.Millisecond}) {
		t.Errorf("waited %v before retrying, want the pushback of 1.5 s", got)
	}

	sc2 := &script{
		errs:     []error{unavailable()},
		trailers: []metadata.MD{metadata.Pairs(grpcx.PushbackTrailer, "-1")},
	}
	c2 := scripted(t, sc2, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	_, err := c2.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Unavailable || len(sc2.calls()) != 1 {
		t.Errorf("negative pushback: %v after %d attempts, want Unavailable after 1", err, len(sc2.calls()))
	}
}

// slowThenFast blocks its first call until the call's context ends, and
// answers the others at once.
type slowThenFast struct {
	calls atomic.Int32
}

func (s *slowThenFast) handle(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	if s.calls.Add(1) == 1 {
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	return reply("fast"), nil
}

// TestCallerDeadlineIsNotRetried: the caller's own deadline ends the
// call; no retry follows.
func TestCallerDeadlineIsNotRetried(t *testing.T) {
	s := new(slowThenFast)
	c := start(t, &service{unary: s.handle}, nil, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v", err)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

// TestAttemptTimeoutIsRetried: an attempt that runs out of its own
// timeout while the caller has time is retried.
func TestAttemptTimeoutIsRetried(t *testing.T) {
	// The attempt timeout runs on a fake clock ahead of the wall clock, so
	// that only Advance ends an attempt.
	clk := clocktest.New(time.Now().Add(time.Hour))
	s := new(slowThenFast)
	c := start(t, &service{unary: s.handle}, nil, unary(
		grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)}),
		grpcx.UnaryAttemptTimeout(100*time.Millisecond, clk),
	))
	ctx := context.Background()
	expire := func(calls *atomic.Int32) {
		waitFor(func() bool { return calls.Load() == 1 && clk.PendingTimers() == 1 })
		clk.Advance(99 * time.Millisecond)
		if calls.Load() != 1 {
			t.Error("the attempt ended before its timeout")
		}
		clk.Advance(time.Millisecond)
	}
	go expire(&s.calls)
	resp, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if err != nil || body(resp) != "fast" {
		t.Fatalf("got %v, %v", resp, err)
	}
	if n := s.calls.Load(); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}

	// Without retry, the attempt's timeout is DeadlineExceeded, and
	// retryable.
	s2 := new(slowThenFast)
	c2 := start(t, &service{unary: s2.handle}, nil, unary(grpcx.UnaryAttemptTimeout(100*time.Millisecond, clk)))
	go expire(&s2.calls)
	_, err = c2.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.DeadlineExceeded || !grpcx.Retryable(err) {
		t.Errorf("attempt timeout: %v (retryable %v)", err, grpcx.Retryable(err))
	}
}

// TestAttemptMetadataOnlyInsideARetryingLayer: a layer that does not
// retry sends no attempt number, and removes one forwarded from
// elsewhere; an enclosing layer's number is sent when this one does not
// retry.
func TestAttemptMetadataOnlyInsideARetryingLayer(t *testing.T) {
	sc := &script{}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(1, nil)})))
	forwarded := metadata.AppendToOutgoingContext(context.Background(), grpcx.AttemptMetadata, "7")
	if _, err := c.UnaryCall(forwarded, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	err := retry.Do(context.Background(), fastPolicy(3, nil), func(ctx context.Context) error {
		if a, _ := retry.Attempt(ctx); a < 2 {
			return retry.Retry(errors.New("outer failure"))
		}
		_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.calls(); !slices.Equal(got, []string{"", "2"}) {
		t.Errorf("the server saw attempts %q, want none, then the enclosing layer's 2", got)
	}
}

// TestNestedLayersDoNotMultiply: a gRPC retry layer inside an
// application's retry.Do makes one attempt per outer attempt: the outer
// layer retries what it retries (the mark tells it Unavailable is
// transient).
func TestNestedLayersDoNotMultiply(t *testing.T) {
	sc := &script{errs: []error{unavailable(), unavailable(), unavailable(), unavailable(), unavailable()}}
	c := scripted(t, sc, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	err := retry.Do(context.Background(), fastPolicy(3, nil), func(ctx context.Context) error {
		_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
		return err
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v", err)
	}
	if n := len(sc.calls()); n != 3 {
		t.Errorf("two layers of 3 attempts sent %d calls, want 3", n)
	}
}

// TestHedgedCopyWithPushbackLeavesTheWaitToRetry: in the documented chain
// (retry → hedge), a copy that fails with the server's pushback ends the
// race: no second copy goes out at once; the retry layer waits the
// pushback and tries again.
func TestHedgedCopyWithPushbackLeavesTheWaitToRetry(t *testing.T) {
	rec := new(sleeps)
	sc := &script{
		errs:     []error{status.Error(codes.ResourceExhausted, "slow down")},
		trailers: []metadata.MD{metadata.Pairs(grpcx.PushbackTrailer, "250")},
	}
	hp := &hedge.Policy{Delay: time.Hour}
	c := scripted(t, sc, unary(
		grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, rec)}),
		grpcx.Hedge(hp, grpcx.IdempotentMethods(unaryCall)),
	))
	if _, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := rec.all(); !slices.Equal(got, []time.Duration{250 * time.Millisecond}) {
		t.Errorf("waited %v before the next attempt; want the pushback of 250 ms", got)
	}
	if m := hp.Metrics(); m.Hedges != 0 || len(sc.calls()) != 2 {
		t.Errorf("%d extra copies, %d calls; want none extra: the pushback ends the race", m.Hedges, len(sc.calls()))
	}
}
