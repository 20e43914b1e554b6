package grpcx_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

func serverChain(o grpcx.ServerOptions, before ...grpc.UnaryServerInterceptor) []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(append(before, grpcx.UnaryServer(o))...),
		grpc.ChainStreamInterceptor(grpcx.StreamServer(o)),
	}
}

// TestServerCapsAndDefaultsDeadlines: a caller's deadline is capped at
// Max; a request without one gets Default, or Max.
func TestServerCapsAndDefaultsDeadlines(t *testing.T) {
	cases := []struct {
		name       string
		o          grpcx.ServerOptions
		caller     time.Duration // 0: no deadline
		lo, hi     time.Duration // of the handler's remaining time; hi -1: none
		streamToo  bool
		noDeadline bool
	}{
		{name: "cap", o: grpcx.ServerOptions{Max: 2 * time.Second}, caller: time.Hour, lo: time.Second, hi: 2 * time.Second, streamToo: true},
		{name: "under the cap", o: grpcx.ServerOptions{Max: time.Hour}, caller: 3 * time.Second, lo: 2 * time.Second, hi: 3 * time.Second},
		{name: "default", o: grpcx.ServerOptions{Default: time.Second}, lo: 0, hi: time.Second, streamToo: true},
		{name: "default capped", o: grpcx.ServerOptions{Default: time.Hour, Max: time.Second}, lo: 0, hi: time.Second},
		{name: "max without default", o: grpcx.ServerOptions{Max: time.Second}, lo: 0, hi: time.Second},
		{name: "zero", o: grpcx.ServerOptions{}, noDeadline: true, streamToo: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := newDeadlineRecorder()
			cl := start(t, &rec.service, serverChain(c.o))
			ctx := context.Background()
			if c.caller > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, c.caller)
				defer cancel()
			}
			if _, err := cl.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
				t.Fatal(err)
			}
			check := func(what string, left time.Duration) {
				if c.noDeadline {
					if left != -1 {
						t.Errorf("%s: the handler got a deadline of %v", what, left)
					}
					return
				}
				within(t, what, left, c.lo, c.hi)
			}
			check("unary", time.Duration(rec.unaryLeft.Load()))
			if c.streamToo {
				drain(t, cl, ctx)
				check("stream", time.Duration(rec.streamLeft.Load()))
			}
		})
	}
}

// TestServerShedsSpentDeadlines: a request whose deadline passed before
// the handler could run (here: in a slow interceptor before it) is
// answered DeadlineExceeded without calling the handler.
func TestServerShedsSpentDeadlines(t *testing.T) {
	rec := newDeadlineRecorder()
	// The slow interceptor takes two minutes on the server's clock, past
	// the caller's one-minute deadline.
	clk := clocktest.New(time.Now())
	slowAuth := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		clk.Advance(2 * time.Minute)
		return next(ctx, req)
	}
	c := start(t, &rec.service, serverChain(grpcx.ServerOptions{Clock: clk}, slowAuth))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("got %v", err)
	}
	if n := rec.calls.Load(); n != 0 {
		t.Errorf("the handler ran %d times for a spent deadline", n)
	}

	// And directly, for both interceptors: the answer is DeadlineExceeded.
	spent, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
	defer cancel2()
	called := false
	_, err = grpcx.UnaryServer(grpcx.ServerOptions{})(spent, nil, &grpc.UnaryServerInfo{FullMethod: unaryCall}, func(context.Context, any) (any, error) {
		called = true
		return nil, nil
	})
	if status.Code(err) != codes.DeadlineExceeded || called {
		t.Errorf("unary: %v, handler called %v", err, called)
	}
	err = grpcx.StreamServer(grpcx.ServerOptions{})(nil, fakeServerStream{spent}, &grpc.StreamServerInfo{FullMethod: outputCall}, func(any, grpc.ServerStream) error {
		called = true
		return nil
	})
	if status.Code(err) != codes.DeadlineExceeded || called {
		t.Errorf("stream: %v, handler called %v", err, called)
	}
}

type fakeServerStream struct{ ctx context.Context }

func (s fakeServerStream) Context() context.Context { return s.ctx }

func (fakeServerStream) SetHeader(metadata.MD) error  { return nil }
func (fakeServerStream) SendHeader(metadata.MD) error { return nil }
func (fakeServerStream) SetTrailer(metadata.MD)       {}
func (fakeServerStream) SendMsg(any) error            { return nil }
func (fakeServerStream) RecvMsg(any) error            { return nil }

// handlerRetrying is a handler that retries a flaky dependency 3 times
// with retry.Do, counting the dependency's calls and the caller attempts
// its context said it served.
type handlerRetrying struct {
	mu        sync.Mutex
	depCalls  int
	callerSaw []int
}

func (h *handlerRetrying) handle(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	n, _ := retry.Attempt(ctx)
	h.mu.Lock()
	h.callerSaw = append(h.callerSaw, n)
	h.mu.Unlock()
	err := retry.Do(ctx, fastPolicy(3, nil), func(context.Context) error {
		h.mu.Lock()
		h.depCalls++
		h.mu.Unlock()
		return syscall.ECONNREFUSED // transient: the dependency is down
	})
	return nil, status.Error(codes.Unavailable, err.Error())
}

// TestServerTrustedCallersRetriesDoNotMultiply: a client retrying 3
// times through a server whose handler retries 3 times sends 3 calls to
// the dependency when the server trusts the client's retry-attempt, and
// 9 when it does not (or the client does not retry).
func TestServerTrustedCallersRetriesDoNotMultiply(t *testing.T) {
	for _, c := range []struct {
		name      string
		trusted   func(context.Context) bool
		want      int
		callerSaw []int
	}{
		{"trusted", grpcx.TrustAll, 3, []int{1, 2, 3}},
		{"untrusted", nil, 9, []int{0, 0, 0}},
		{"trust refused", func(context.Context) bool { return false }, 9, []int{0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := &handlerRetrying{}
			cl := start(t, &service{unary: h.handle}, serverChain(grpcx.ServerOptions{Trusted: c.trusted}),
				unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
			_, err := cl.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
			if status.Code(err) != codes.Unavailable {
				t.Fatalf("got %v", err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.depCalls != c.want {
				t.Errorf("the dependency got %d calls, want %d", h.depCalls, c.want)
			}
			if !slices.Equal(h.callerSaw, c.callerSaw) {
				t.Errorf("the handler's context said attempts %v, want %v", h.callerSaw, c.callerSaw)
			}
		})
	}
}

// TestTwoGRPCHopsDoNotMultiply: client → front → backend, each client
// retrying 3 times through grpcx: a front that trusts its caller sends
// the backend 3 calls, not 9, because the front's retry layer learns
// from the caller's mark that the caller retries Unavailable.
func TestTwoGRPCHopsDoNotMultiply(t *testing.T) {
	for _, c := range []struct {
		name    string
		trusted func(context.Context) bool
		want    int32
	}{
		{"trusted", grpcx.TrustAll, 3},
		{"untrusted", nil, 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			var backendCalls atomic.Int32
			backend := start(t, &service{unary: func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
				backendCalls.Add(1)
				return nil, status.Error(codes.Unavailable, "backend down")
			}}, nil, unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
			front := start(t, &service{unary: func(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
				return backend.UnaryCall(ctx, req)
			}}, serverChain(grpcx.ServerOptions{Trusted: c.trusted}),
				unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
			_, err := front.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
			if status.Code(err) != codes.Unavailable {
				t.Fatalf("got %v", err)
			}
			if n := backendCalls.Load(); n != c.want {
				t.Errorf("the backend got %d calls, want %d", n, c.want)
			}
		})
	}
}

// TestStreamServerMarksTrustedCallers: the stream interceptor puts the
// caller's attempt into the handler's stream context.
func TestStreamServerMarksTrustedCallers(t *testing.T) {
	var mu sync.Mutex
	var saw []int
	svc := &service{output: func(_ *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		n, _ := retry.Attempt(s.Context())
		mu.Lock()
		saw = append(saw, n)
		first := len(saw) == 1
		mu.Unlock()
		if first {
			return status.Error(codes.Unavailable, "down")
		}
		return nil
	}}
	c := start(t, svc, serverChain(grpcx.ServerOptions{Trusted: grpcx.TrustAll}),
		streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	drain(t, c, context.Background())
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(saw, []int{1, 2}) {
		t.Errorf("the handler's stream context said attempts %v, want 1, 2", saw)
	}
}

// TestTrustedCallerRetriesStatusCodes: a handler whose retry layer
// classifies with Retryable, under a trusted caller retrying 3 times,
// leaves the backend's Unavailable to the caller: 3 backend calls, not 9.
// The caller is known to retry status codes, which retry.Transient does
// not know.
func TestTrustedCallerRetriesStatusCodes(t *testing.T) {
	var depCalls atomic.Int32
	handler := func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		p := &retry.Policy{MaxAttempts: 3, Retryable: grpcx.Retryable, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
		return nil, retry.Do(ctx, p, func(context.Context) error {
			depCalls.Add(1)
			return status.Error(codes.Unavailable, "backend down")
		})
	}
	cl := start(t, &service{unary: handler}, serverChain(grpcx.ServerOptions{Trusted: grpcx.TrustAll}),
		unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	if _, err := cl.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v", err)
	}
	if n := depCalls.Load(); n != 3 {
		t.Fatalf("the backend got %d calls; want 3 (the caller's attempts, one each)", n)
	}
	// A caller declared to retry nothing the handler sees leaves the
	// handler's layer its own attempts.
	depCalls.Store(0)
	cl = start(t, &service{unary: handler}, serverChain(grpcx.ServerOptions{Trusted: grpcx.TrustAll, CallerRetries: func(error) bool { return false }}),
		unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	_, _ = cl.UnaryCall(context.Background(), &testgrpc.SimpleRequest{})
	if n := depCalls.Load(); n != 9 {
		t.Fatalf("with CallerRetries retrying nothing, the backend got %d calls; want 9", n)
	}
}
