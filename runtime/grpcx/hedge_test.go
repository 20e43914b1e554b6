package grpcx_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/hedge"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// firstSlow is a service whose first call of each method waits until its
// context ends (it says so on arrived), and whose other calls answer at
// once; every call sends its number in the "call" header.
type firstSlow struct {
	calls     atomic.Int32
	arrived   chan struct{}
	cancelled chan struct{}
}

func newFirstSlow() *firstSlow {
	return &firstSlow{arrived: make(chan struct{}, 1), cancelled: make(chan struct{}, 1)}
}

func (f *firstSlow) handle(ctx context.Context) error {
	n := f.calls.Add(1)
	grpc.SetHeader(ctx, metadata.Pairs("call", strconv.Itoa(int(n))))
	if n == 1 {
		f.arrived <- struct{}{}
		<-ctx.Done()
		f.cancelled <- struct{}{}
		return status.FromContextError(ctx.Err()).Err()
	}
	return nil
}

func (f *firstSlow) service() *service {
	return &service{
		unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			if err := f.handle(ctx); err != nil {
				return nil, err
			}
			return reply("call " + strconv.Itoa(int(f.calls.Load()))), nil
		},
		empty: func(ctx context.Context, _ *testgrpc.Empty) (*testgrpc.Empty, error) {
			if err := f.handle(ctx); err != nil {
				return nil, err
			}
			return &testgrpc.Empty{}, nil
		},
	}
}

// TestHedgeIdempotentMethod: a declared method's slow first copy is
// hedged after the delay; the second copy wins, its reply and header
// reach the caller, and the first copy is cancelled.
func TestHedgeIdempotentMethod(t *testing.T) {
	clk := clocktest.New(time.Unix(1e9, 0))
	f := newFirstSlow()
	c := start(t, f.service(), nil, unary(
		grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)}),
		grpcx.Hedge(&hedge.Policy{Delay: 50 * time.Millisecond, Clock: clk}, grpcx.IdempotentMethods(unaryCall)),
		grpcx.UnaryBreaker(grpcx.BreakerOptions{}),
	))
	type result struct {
		resp   *testgrpc.SimpleResponse
		header metadata.MD
		err    error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		r.resp, r.err = c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}, grpc.Header(&r.header))
		done <- r
	}()
	<-f.arrived
	clk.Advance(50 * time.Millisecond) // the delay: the second copy goes out
	r := <-done
	if r.err != nil || body(r.resp) != "call 2" {
		t.Fatalf("got %v, %v; want the second copy's reply", r.resp, r.err)
	}
	if got := r.header.Get("call"); len(got) != 1 || got[0] != "2" {
		t.Errorf("header %v, want the winning copy's", r.header)
	}
	select {
	case <-f.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the losing copy was not cancelled")
	}
	if n := f.calls.Load(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// TestHedgeLeavesOtherMethodsAlone: a method not declared idempotent is
// sent once, however slow.
func TestHedgeLeavesOtherMethodsAlone(t *testing.T) {
	clk := clocktest.New(time.Unix(1e9, 0))
	f := newFirstSlow()
	c := start(t, f.service(), nil, unary(
		grpcx.Hedge(&hedge.Policy{Delay: 50 * time.Millisecond, Clock: clk}, grpcx.IdempotentMethods(unaryCall)),
	))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
		done <- err
	}()
	<-f.arrived
	if n := clk.PendingTimers(); n != 0 {
		t.Errorf("%d hedge timers armed for an undeclared method", n)
	}
	clk.Advance(time.Second)
	cancel()
	if err := <-done; status.Code(err) != codes.Canceled {
		t.Errorf("got %v", err)
	}
	if n := f.calls.Load(); n != 1 {
		t.Errorf("%d calls of an undeclared method, want 1", n)
	}
}

// TestHedgeStopsOnAnAnswer: a copy's non-retryable error ends the race
// at once; the caller gets it with its trailer.
func TestHedgeStopsOnAnAnswer(t *testing.T) {
	clk := clocktest.New(time.Unix(1e9, 0))
	var calls atomic.Int32
	svc := &service{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		calls.Add(1)
		grpc.SetTrailer(ctx, metadata.Pairs("why", "bad request"))
		return nil, status.Error(codes.InvalidArgument, "bad")
	}}
	c := start(t, svc, nil, unary(grpcx.Hedge(&hedge.Policy{Delay: 50 * time.Millisecond, Clock: clk}, grpcx.IdempotentMethods(unaryCall))))
	var trailer metadata.MD
	_, err := c.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}, grpc.Trailer(&trailer))
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("got %v", err)
	}
	if got := trailer.Get("why"); len(got) != 1 {
		t.Errorf("trailer %v, want the copy's", trailer)
	}
	clk.Advance(time.Second)
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}
