package grpcx

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/resilvet/resilvet/runtime/clocktest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// UnaryAttemptTimeout returns a client interceptor that gives each call
// passing through it at most d, the per-attempt timeout: put it last in
// the chain, inside the retry and breaker interceptors, so that each
// attempt (and each hedged copy) has its own. An attempt that runs out of
// it while the caller's context is alive fails with DeadlineExceeded and
// is retryable (see Retryable); the breaker, outside it, counts it as a
// failure. A caller's earlier deadline stays the caller's: when it
// expires the call is not retried. d <= 0 means no timeout. clk, if
// given, is the Clock the timeout runs on (a *clocktest.Clock in tests);
// the wall clock otherwise.
func UnaryAttemptTimeout(d time.Duration, clk ...Clock) grpc.UnaryClientInterceptor {
	c := clockOf(clk)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if d <= 0 {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		attempt, cancel := withTimeout(ctx, c, d)
		defer cancel()
		err := invoker(attempt, method, req, reply, cc, opts...)
		return ownTimeout(c, ctx, attempt, err, "attempt", d)
	}
}

// errSetupTimeout is the cause with which StreamSetupTimeout cancels a
// stream that did not answer in time.
var errSetupTimeout = errors.New("stream setup timed out")

// StreamSetupTimeout returns a client interceptor that bounds a stream's
// setup: if neither the server's response header (watched by the
// interceptor: the caller need not call Header) nor its first message
// has arrived d after the stream was opened, the stream is cancelled and
// fails with DeadlineExceeded, retryable as an attempt's own timeout (so
// StreamRetry, outside it, opens another). Once the server has answered,
// the stream lives as long as the caller's context lets it. Put it last
// in the chain. d <= 0 means no bound. clk, if given, is the Clock the
// bound runs on (a *clocktest.Clock in tests); the wall clock otherwise.
//
// The bound covers what happens before the answer, the caller's own
// sends included: for a stream whose server answers only after the
// client has sent everything (client streaming), set d above the time
// the upload takes, or leave such methods out of this interceptor's
// connection.
func StreamSetupTimeout(d time.Duration, clk ...Clock) grpc.StreamClientInterceptor {
	c := clockOf(clk)
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		if d <= 0 {
			return streamer(ctx, desc, cc, method, opts...)
		}
		sctx, cancel := context.WithCancelCause(ctx)
		s := &setupStream{parent: ctx, ctx: sctx, cancel: cancel, limit: d, clock: c}
		s.timer = c.AfterFunc(d, func() { cancel(errSetupTimeout) })
		cs, err := streamer(sctx, desc, cc, method, opts...)
		if err != nil {
			err = s.convert(err)
			s.end()
			return nil, err
		}
		s.ClientStream = cs
		watchHeader(cs, func() { s.timer.Stop() })
		return s, nil
	}
}

// watchHeader calls answered once the server's response header arrives
// on cs, whether or not the caller ever asks for it: generated stubs do
// not call Header, and a watch stream's header can come long before its
// first message. One goroutine per stream waits on Header; it ends when
// the header arrives or the stream does (grpc-go's Header returns then).
func watchHeader(cs grpc.ClientStream, answered func()) {
	go func() {
		if md, err := cs.Header(); err == nil && md != nil {
			answered()
		}
	}()
}

// setupStream is a stream whose setup is bounded by a timer, stopped by
// the first header or message.
type setupStream struct {
	grpc.ClientStream
	parent, ctx context.Context
	cancel      context.CancelCauseFunc
	timer       clocktest.Timer
	limit       time.Duration
	clock       Clock
	ended       sync.Once
}

// end releases the stream's context and timer once the stream is over.
func (s *setupStream) end() {
	s.ended.Do(func() {
		s.timer.Stop()
		s.cancel(nil)
	})
}

func (s *setupStream) convert(err error) error {
	return ownTimeout(s.clock, s.parent, s.ctx, err, "stream setup", s.limit)
}

func (s *setupStream) Header() (metadata.MD, error) {
	md, err := s.ClientStream.Header()
	if md != nil {
		s.timer.Stop() // the server has answered
	}
	return md, err
}

func (s *setupStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err == nil {
		s.timer.Stop()
		return nil
	}
	err = s.convert(err)
	s.end()
	return err
}

func (s *setupStream) SendMsg(m any) error {
	err := s.ClientStream.SendMsg(m)
	if err != nil && err != io.EOF {
		err = s.convert(err)
		s.end()
	}
	return err
}
