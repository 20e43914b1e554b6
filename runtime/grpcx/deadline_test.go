package grpcx_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// deadlineRecorder is a service that records the time its handlers had
// left when called.
type deadlineRecorder struct {
	service
	unaryLeft, emptyLeft, streamLeft atomic.Int64
	calls                            atomic.Int32
}

func newDeadlineRecorder() *deadlineRecorder {
	r := &deadlineRecorder{}
	r.unary = func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		r.calls.Add(1)
		r.unaryLeft.Store(int64(deadlineOf(ctx)))
		return reply("ok"), nil
	}
	r.empty = func(ctx context.Context, _ *testgrpc.Empty) (*testgrpc.Empty, error) {
		r.calls.Add(1)
		r.emptyLeft.Store(int64(deadlineOf(ctx)))
		return &testgrpc.Empty{}, nil
	}
	r.output = func(_ *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		r.calls.Add(1)
		r.streamLeft.Store(int64(deadlineOf(s.Context())))
		return nil
	}
	return r
}

func within(t *testing.T, what string, got, lo, hi time.Duration) {
	t.Helper()
	if got <= lo || got > hi {
		t.Errorf("%s: server had %v left, want in (%v, %v]", what, got, lo, hi)
	}
}

// TestDeadlineDefaultsBoundCallsWithoutOne: a unary call without a
// deadline gets its method's timeout, or the default; streams get one
// only from PerMethod; a negative timeout leaves a method unbounded.
func TestDeadlineDefaultsBoundCallsWithoutOne(t *testing.T) {
	rec := newDeadlineRecorder()
	o := grpcx.DeadlineOptions{Default: 3 * time.Second, PerMethod: map[string]time.Duration{emptyCall: time.Second}}
	c := start(t, &rec.service, nil, unary(grpcx.UnaryDeadline(o)), streams(grpcx.StreamDeadline(o)))
	ctx := context.Background()
	if _, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	within(t, "default", time.Duration(rec.unaryLeft.Load()), 2*time.Second, 3*time.Second)
	if _, err := c.EmptyCall(ctx, &testgrpc.Empty{}); err != nil {
		t.Fatal(err)
	}
	within(t, "per method", time.Duration(rec.emptyLeft.Load()), 0, time.Second)
	drain(t, c, ctx)
	if left := rec.streamLeft.Load(); left != -1 {
		t.Errorf("a stream without a deadline got one of %v from Default", time.Duration(left))
	}

	rec2 := newDeadlineRecorder()
	o2 := grpcx.DeadlineOptions{PerMethod: map[string]time.Duration{outputCall: time.Second, unaryCall: -1}}
	c2 := start(t, &rec2.service, nil, unary(grpcx.UnaryDeadline(o2)), streams(grpcx.StreamDeadline(o2)))
	if _, err := c2.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if left := rec2.unaryLeft.Load(); left != -1 {
		t.Errorf("a method with a negative timeout got a deadline of %v", time.Duration(left))
	}
	if _, err := c2.EmptyCall(ctx, &testgrpc.Empty{}); err != nil {
		t.Fatal(err)
	}
	within(t, "zero Default", time.Duration(rec2.emptyLeft.Load()), 9*time.Second, 10*time.Second)
	drain(t, c2, ctx)
	within(t, "stream in PerMethod", time.Duration(rec2.streamLeft.Load()), 0, time.Second)
}

// drain opens a StreamingOutputCall and reads it to the end.
func drain(t *testing.T, c testgrpc.TestServiceClient, ctx context.Context) {
	t.Helper()
	s, err := c.StreamingOutputCall(ctx, &testgrpc.StreamingOutputCallRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := s.Recv(); err != nil {
			return
		}
	}
}

// TestDeadlineReserveIsSubtracted: the server sees the caller's deadline
// less the reserve; a caller's deadline is not capped by the defaults.
func TestDeadlineReserveIsSubtracted(t *testing.T) {
	rec := newDeadlineRecorder()
	o := grpcx.DeadlineOptions{Default: time.Second, Reserve: 2 * time.Second}
	c := start(t, &rec.service, nil, unary(grpcx.UnaryDeadline(o)), streams(grpcx.StreamDeadline(o)))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	within(t, "unary", time.Duration(rec.unaryLeft.Load()), 2*time.Second, 3*time.Second)
	drain(t, c, ctx)
	within(t, "stream", time.Duration(rec.streamLeft.Load()), 2*time.Second, 3*time.Second)
}

// TestDeadlineTooShortIsNotSent: a call whose remaining time does not
// exceed the reserve, or whose deadline has passed, fails at once with
// DeadlineExceeded and the deadline package's sentinel, unsent.
func TestDeadlineTooShortIsNotSent(t *testing.T) {
	rec := newDeadlineRecorder()
	c := start(t, &rec.service, nil,
		unary(grpcx.UnaryDeadline(grpcx.DeadlineOptions{Reserve: time.Second})),
		streams(grpcx.StreamDeadline(grpcx.DeadlineOptions{})))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.DeadlineExceeded || !errors.Is(err, deadline.ErrInsufficient) {
		t.Errorf("500 ms left, 1 s reserved: %v", err)
	}
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	_, err = c.StreamingOutputCall(past, &testgrpc.StreamingOutputCallRequest{})
	if status.Code(err) != codes.DeadlineExceeded || !errors.Is(err, deadline.ErrExpired) {
		t.Errorf("deadline passed: %v", err)
	}
	if n := rec.calls.Load(); n != 0 {
		t.Errorf("the server got %d calls", n)
	}
}
