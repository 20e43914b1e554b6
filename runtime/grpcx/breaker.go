package grpcx

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/resilvet/resilvet/runtime/breaker"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// BreakerOptions configure UnaryBreaker and StreamBreaker. The zero value
// keeps one breaker of default Settings per target (cc.Target()), in a
// Group of the interceptor's own, and classifies calls with
// BreakerOutcome.
type BreakerOptions struct {
	// Breakers holds the breakers; nil means a zero breaker.Group of the
	// interceptor's own (default Settings named after the key, at most
	// 1,024 breakers). Share one Group between the unary and stream
	// interceptors of a connection so that both see the same circuits.
	Breakers *breaker.Group
	// Key picks a call's breaker: its failure domain. nil means
	// ByTarget, one per connection target; ByMethod keeps one per method
	// of each target, for servers whose methods fail independently.
	Key func(cc *grpc.ClientConn, method string) string
	// Classify decides each call's outcome from the context the
	// interceptor was called with and the call's error. nil means
	// BreakerOutcome. The breakers' own Settings.Classify is not used.
	Classify func(ctx context.Context, err error) breaker.Outcome
}

// ByTarget keys breakers by the connection's target: one failure domain
// per dependency.
func ByTarget(cc *grpc.ClientConn, _ string) string {
	if cc == nil {
		return ""
	}
	return cc.Target()
}

// ByMethod keys breakers by target and full method name.
func ByMethod(cc *grpc.ClientConn, method string) string {
	return ByTarget(cc, method) + method
}

// breakers is what UnaryBreaker and StreamBreaker share.
type breakers struct {
	group    *breaker.Group
	key      func(*grpc.ClientConn, string) string
	classify func(context.Context, error) breaker.Outcome
	own      breaker.Group
}

func newBreakers(o BreakerOptions) *breakers {
	b := &breakers{group: o.Breakers, key: o.Key, classify: o.Classify}
	if b.group == nil {
		b.group = &b.own
	}
	if b.key == nil {
		b.key = ByTarget
	}
	if b.classify == nil {
		b.classify = BreakerOutcome
	}
	return b
}

// allow admits a call or returns the open circuit as a gRPC status.
func (b *breakers) allow(cc *grpc.ClientConn, method string) (*breaker.Done, error) {
	done, err := b.group.Get(b.key(cc, method)).Allow()
	if err != nil {
		return nil, circuitOpenError(err, method)
	}
	return done, nil
}

// UnaryBreaker returns a client interceptor that guards calls with
// circuit breakers. A call the circuit refuses is not sent: it fails with
// Unavailable, errors.Is(err, breaker.ErrOpen) holds, and no retry layer
// retries it. Put it inside the retry (and hedge) interceptors, so that
// every attempt and every copy is judged, and outside the per-attempt
// timeout, so that an attempt's timeout counts as a failure while the
// caller's own deadline or cancellation is ignored.
func UnaryBreaker(o BreakerOptions) grpc.UnaryClientInterceptor {
	b := newBreakers(o)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		done, err := b.allow(cc, method)
		if err != nil {
			return err
		}
		returned := false
		defer func() {
			if !returned { // the invoker panicked: a failure; the panic goes on
				done.Record(breaker.Failure)
			}
		}()
		err = invoker(ctx, method, req, reply, cc, opts...)
		returned = true
		done.Record(b.classify(ctx, err))
		return err
	}
}

// StreamBreaker is UnaryBreaker for streams. A stream's outcome is known
// at its first response (a success: the server answers; its header,
// watched by the interceptor, counts, so a watch stream waiting for its
// first event is a success at once) or when it ends before one, so a
// long-lived stream does not hold a half-open circuit's probe for its
// lifetime.
func StreamBreaker(o BreakerOptions) grpc.StreamClientInterceptor {
	b := newBreakers(o)
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		done, err := b.allow(cc, method)
		if err != nil {
			return nil, err
		}
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			done.Record(b.classify(ctx, err))
			return nil, err
		}
		s := &breakerStream{ClientStream: cs, ctx: ctx, done: done, classify: b.classify}
		watchHeader(cs, func() { s.record(nil) })
		return s, nil
	}
}

// breakerStream reports its stream's outcome once.
type breakerStream struct {
	grpc.ClientStream
	ctx      context.Context
	done     *breaker.Done
	classify func(context.Context, error) breaker.Outcome
	recorded atomic.Bool
}

func (s *breakerStream) record(err error) {
	if s.recorded.CompareAndSwap(false, true) {
		s.done.Record(s.classify(s.ctx, err))
	}
}

func (s *breakerStream) Header() (metadata.MD, error) {
	md, err := s.ClientStream.Header()
	if md != nil {
		s.record(nil)
	}
	return md, err
}

func (s *breakerStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err == io.EOF {
		s.record(nil) // ended well
	} else {
		s.record(err)
	}
	return err
}

func (s *breakerStream) SendMsg(m any) error {
	err := s.ClientStream.SendMsg(m)
	if err != nil && err != io.EOF {
		s.record(err)
	}
	return err
}
