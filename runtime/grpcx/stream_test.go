package grpcx_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
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

// outputOf answers a StreamingOutputCall with one message per response
// parameter, whose body is the request's payload.
func outputOf(req *testgrpc.StreamingOutputCallRequest, s outputStream, n int) error {
	for range n {
		if err := s.Send(&testgrpc.StreamingOutputCallResponse{Payload: req.GetPayload()}); err != nil {
			return err
		}
	}
	return nil
}

// readAll reads a stream to its end and returns the bodies and the error
// that ended it (nil for io.EOF).
func readAll(recv func() (*testgrpc.StreamingOutputCallResponse, error)) ([]string, error) {
	var got []string
	for {
		m, err := recv()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, string(m.GetPayload().GetBody()))
	}
}

func outputRequest(body string, n int) *testgrpc.StreamingOutputCallRequest {
	req := &testgrpc.StreamingOutputCallRequest{Payload: payload(body)}
	for range n {
		req.ResponseParameters = append(req.ResponseParameters, &testgrpc.ResponseParameters{Size: 1})
	}
	return req
}

// TestStreamRetriedBeforeFirstMessage: a stream that fails before its
// first message is opened again with the request replayed.
func TestStreamRetriedBeforeFirstMessage(t *testing.T) {
	var mu sync.Mutex
	var seen, attempts []string
	svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		mu.Lock()
		seen = append(seen, string(req.GetPayload().GetBody()))
		attempts = append(attempts, attemptOf(s.Context()))
		n := len(seen)
		mu.Unlock()
		if n == 1 {
			return status.Error(codes.Unavailable, "restarting")
		}
		return outputOf(req, s, len(req.ResponseParameters))
	}}
	c := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	s, err := c.StreamingOutputCall(context.Background(), outputRequest("hello", 3))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(s.Recv)
	if err != nil || !slices.Equal(got, []string{"hello", "hello", "hello"}) {
		t.Fatalf("read %q, %v", got, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, []string{"hello", "hello"}) || !slices.Equal(attempts, []string{"1", "2"}) {
		t.Errorf("the server saw requests %q, attempts %q", seen, attempts)
	}
}

// TestStreamNotRetriedAfterFirstMessage: once a message has arrived, the
// stream's failure is the caller's.
func TestStreamNotRetriedAfterFirstMessage(t *testing.T) {
	var opened atomic.Int32
	svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		opened.Add(1)
		if err := outputOf(req, s, 1); err != nil {
			return err
		}
		return status.Error(codes.Unavailable, "crashed mid-stream")
	}}
	c := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 3))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(s.Recv)
	if len(got) != 1 || status.Code(err) != codes.Unavailable {
		t.Fatalf("read %q, %v; want one message, then Unavailable", got, err)
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("%d streams opened, want 1", n)
	}
}

// duplexEcho is a FullDuplexCall handler that reads every message, then
// fails the first stream with Unavailable and echoes the others' bodies
// back in order.
type duplexEcho struct {
	failFast bool // fail the first stream before reading anything
	mu       sync.Mutex
	received [][]string // per stream
}

func (d *duplexEcho) handle(s duplexStream) error {
	if d.failFast {
		d.mu.Lock()
		first := len(d.received) == 0
		if first {
			d.received = append(d.received, nil)
		}
		d.mu.Unlock()
		if first {
			return status.Error(codes.Unavailable, "refused at once")
		}
	}
	var got []string
	for {
		m, err := s.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		got = append(got, string(m.GetPayload().GetBody()))
	}
	d.mu.Lock()
	d.received = append(d.received, got)
	n := len(d.received)
	d.mu.Unlock()
	if n == 1 {
		return status.Error(codes.Unavailable, "lost the connection")
	}
	for _, b := range got {
		if err := s.Send(&testgrpc.StreamingOutputCallResponse{Payload: payload(b)}); err != nil {
			return err
		}
	}
	return nil
}

func (d *duplexEcho) streams() [][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.received)
}

// TestStreamReplaysSentMessages: the messages sent before the failure,
// and the CloseSend, are replayed on the new stream.
func TestStreamReplaysSentMessages(t *testing.T) {
	d := &duplexEcho{}
	c := start(t, &service{duplex: d.handle}, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	s, err := c.FullDuplexCall(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"a", "b", "c"} {
		if err := s.Send(&testgrpc.StreamingOutputCallRequest{Payload: payload(b)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CloseSend(); err != nil {
		t.Fatal(err)
	}
	got, err := readAll(s.Recv)
	if err != nil || !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("read %q, %v", got, err)
	}
	if got := d.streams(); len(got) != 2 || !slices.Equal(got[1], []string{"a", "b", "c"}) {
		t.Errorf("the server received %q", got)
	}
}

// TestStreamSendsAfterFailureAreKept: messages sent after the attempt
// failed (SendMsg found io.EOF) are kept, not lost, and the caller's
// SendMsg succeeds: the replay sends them all.
func TestStreamSendsAfterFailureAreKept(t *testing.T) {
	d := &duplexEcho{failFast: true}
	c := start(t, &service{duplex: d.handle}, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	s, err := c.FullDuplexCall(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range []string{"a", "b", "c"} {
		if i == 1 {
			time.Sleep(50 * time.Millisecond) // let the failure reach the client
		}
		if err := s.Send(&testgrpc.StreamingOutputCallRequest{Payload: payload(b)}); err != nil {
			t.Fatalf("Send(%s): %v", b, err)
		}
	}
	s.CloseSend()
	got, err := readAll(s.Recv)
	if err != nil || !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("read %q, %v", got, err)
	}
}

// TestStreamNotRetriedPastReplayBuffer: messages beyond the buffer
// commit the stream.
func TestStreamNotRetriedPastReplayBuffer(t *testing.T) {
	d := &duplexEcho{}
	c := start(t, &service{duplex: d.handle}, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil), ReplayBuffer: 16})))
	s, err := c.FullDuplexCall(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Send(&testgrpc.StreamingOutputCallRequest{Payload: payload("small")})
	s.Send(&testgrpc.StreamingOutputCallRequest{Payload: payload("too large to keep for a replay")})
	s.CloseSend()
	_, err = readAll(s.Recv)
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v", err)
	}
	if n := len(d.streams()); n != 1 {
		t.Errorf("%d streams, want 1", n)
	}
}

// countingBudget counts deposits and grants every withdrawal.
type countingBudget struct{ deposits, withdrawals atomic.Int32 }

func (b *countingBudget) Deposit() { b.deposits.Add(1) }
func (b *countingBudget) Withdraw() bool {
	b.withdrawals.Add(1)
	return true
}

// TestStreamDepositsOnce: every stream deposits once in the retry
// budget, when it opens, whether or not it is retried.
func TestStreamDepositsOnce(t *testing.T) {
	var opened atomic.Int32
	svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		if opened.Add(1) == 1 {
			return status.Error(codes.Unavailable, "down")
		}
		return outputOf(req, s, 1)
	}}
	b := &countingBudget{}
	p := fastPolicy(3, nil)
	p.Budget = b
	c := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: p})))
	for range 2 {
		s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(s.Recv); err != nil {
			t.Fatal(err)
		}
	}
	if d, w := b.deposits.Load(), b.withdrawals.Load(); d != 2 || w != 1 {
		t.Errorf("2 streams, one retried: %d deposits, %d withdrawals; want 2 and 1", d, w)
	}
}

// TestStreamGivesUp: a stream that keeps failing before its first
// message fails after MaxAttempts with the status and retry's reason.
func TestStreamGivesUp(t *testing.T) {
	var opened atomic.Int32
	svc := &service{output: func(*testgrpc.StreamingOutputCallRequest, outputStream) error {
		opened.Add(1)
		return status.Error(codes.Unavailable, "down")
	}}
	c := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(s.Recv)
	if status.Code(err) != codes.Unavailable || !errors.Is(err, retry.ErrAttemptsExhausted) {
		t.Errorf("got %v", err)
	}
	if n := opened.Load(); n != 3 {
		t.Errorf("%d streams, want 3", n)
	}
}

// failOpens is a stream interceptor, inside the retry, that fails the
// first n streams it is asked to open with Unavailable, as a connection
// in transient failure does.
func failOpens(n int32) grpc.StreamClientInterceptor {
	var opens atomic.Int32
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		if opens.Add(1) <= n {
			return nil, status.Error(codes.Unavailable, "no connection")
		}
		return streamer(ctx, desc, cc, method, opts...)
	}
}

// TestStreamOpenFailuresShareTheAttempts: a stream that fails to open is
// retried, and attempts spent opening it count against those left for
// failures before its first message.
func TestStreamOpenFailuresShareTheAttempts(t *testing.T) {
	for _, c := range []struct {
		name     string
		attempts int
		ok       bool
	}{{"enough attempts", 3, true}, {"too few", 2, false}} {
		t.Run(c.name, func(t *testing.T) {
			var opened atomic.Int32
			svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
				if opened.Add(1) == 1 {
					return status.Error(codes.Unavailable, "down")
				}
				return outputOf(req, s, 1)
			}}
			cl := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(c.attempts, nil)}), failOpens(1)))
			s, err := cl.StreamingOutputCall(context.Background(), outputRequest("x", 1))
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			got, err := readAll(s.Recv)
			if c.ok && (err != nil || len(got) != 1) || !c.ok && status.Code(err) != codes.Unavailable {
				t.Fatalf("read %q, %v", got, err)
			}
			if want := int32(c.attempts - 1); opened.Load() != want {
				t.Errorf("the server got %d streams, want %d", opened.Load(), want)
			}
		})
	}
	// A stream that never opens fails from NewStream.
	cl := start(t, &service{}, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)}), failOpens(3)))
	_, err := cl.StreamingOutputCall(context.Background(), outputRequest("x", 1))
	if status.Code(err) != codes.Unavailable || !errors.Is(err, retry.ErrAttemptsExhausted) {
		t.Errorf("got %v", err)
	}
}

// TestStreamHeaderCommitsAndEndsSetup: a header the caller has read
// commits the stream (no retry once the caller has seen it) and ends the
// setup timeout (the server has answered).
func TestStreamHeaderCommitsAndEndsSetup(t *testing.T) {
	clk := clocktest.New(time.Now())
	var opened atomic.Int32
	release := make(chan struct{})
	svc := &service{output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
		opened.Add(1)
		if err := s.SendHeader(metadata.Pairs("ready", "yes")); err != nil {
			return err
		}
		<-release // beyond the setup timeout
		if err := outputOf(req, s, 1); err != nil {
			return err
		}
		return status.Error(codes.Unavailable, "gone")
	}}
	c := start(t, svc, nil, streams(
		grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)}),
		grpcx.StreamBreaker(grpcx.BreakerOptions{}),
		grpcx.StreamSetupTimeout(50*time.Millisecond, clk),
	))
	s, err := c.StreamingOutputCall(context.Background(), outputRequest("x", 1))
	if err != nil {
		t.Fatal(err)
	}
	md, err := s.Header()
	if err != nil || md.Get("ready") == nil {
		t.Fatalf("header %v, %v", md, err)
	}
	clk.Advance(time.Minute)
	close(release)
	got, err := readAll(s.Recv)
	if len(got) != 1 || status.Code(err) != codes.Unavailable {
		t.Errorf("read %q, %v; want the message, then the server's Unavailable", got, err)
	}
	if s.Trailer() == nil || s.Context() == nil {
		t.Error("no trailer or context")
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("%d streams, want 1", n)
	}
}

// TestStreamSendDoesNotBlockRecv: a send blocked by flow control (the
// server reads nothing until the client has read what it sent) must not
// keep the client from receiving: with a lock held across SendMsg this
// deadlocks.
func TestStreamSendDoesNotBlockRecv(t *testing.T) {
	const n, size = 64, 64 << 10
	big := make([]byte, size)
	svc := &service{duplex: func(s duplexStream) error {
		for range n {
			if err := s.Send(&testgrpc.StreamingOutputCallResponse{Payload: &testgrpc.Payload{Body: big}}); err != nil {
				return err
			}
		}
		for {
			if _, err := s.Recv(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	}}
	c := start(t, svc, nil, streams(grpcx.StreamRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := c.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() {
		for range n {
			if err := s.Send(&testgrpc.StreamingOutputCallRequest{Payload: &testgrpc.Payload{Body: big}}); err != nil {
				sent <- err
				return
			}
		}
		sent <- s.CloseSend()
	}()
	got, err := readAll(s.Recv)
	if err != nil || len(got) != n {
		t.Fatalf("received %d messages, %v", len(got), err)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}
