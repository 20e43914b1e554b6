package grpcx

import (
	"context"
	"maps"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
	"google.golang.org/grpc"
)

// DeadlineOptions configure UnaryDeadline and StreamDeadline. The zero
// value bounds unary calls without a deadline at 10 s, leaves streams
// without one unbounded, and passes a caller's deadline on whole.
type DeadlineOptions struct {
	// Default is the timeout of a unary call whose context has no
	// deadline and whose method is not in PerMethod. 0 means 10 s;
	// negative leaves such calls unbounded. It does not apply to streams,
	// which may live as long as their connection by design (watches,
	// subscriptions): bound their setup with StreamSetupTimeout.
	Default time.Duration
	// PerMethod is the timeout of calls without a deadline by full method
	// name ("/pkg.Service/Method"), streams included; a negative value
	// leaves that method unbounded. nil means none. The map is copied.
	PerMethod map[string]time.Duration
	// Reserve is kept back from a caller's deadline for the caller's own
	// work after the call (decoding, answering its own caller): the call
	// goes out with the deadline minus Reserve, and gRPC sends what is
	// left in grpc-timeout. A call whose remaining time is not more than
	// Reserve is not sent: it fails at once with DeadlineExceeded, and
	// errors.Is finds deadline.ErrInsufficient (or deadline.ErrExpired
	// when nothing is left). 0 reserves nothing, but still refuses a
	// call whose deadline has passed.
	Reserve time.Duration
	// Clock is the clock of the timeouts and of the time left (see
	// Clock); nil means the wall clock.
	Clock Clock
}

// defaultTimeout bounds unary calls when DeadlineOptions.Default is 0.
const defaultTimeout = 10 * time.Second

// timeout returns the timeout of a call to method without a deadline; 0
// for none.
func (o *DeadlineOptions) timeout(method string, stream bool) time.Duration {
	if d, ok := o.PerMethod[method]; ok {
		return max(d, 0)
	}
	switch {
	case stream:
		return 0
	case o.Default == 0:
		return defaultTimeout
	}
	return max(o.Default, 0)
}

// bound returns the context a call to method goes out with: the caller's
// deadline less the reserve, or the method's timeout when the caller set
// no deadline (a caller's deadline is the caller's decision, longer or
// shorter than the timeouts here, which are for calls that came without
// one). cancel is nil when ctx is returned unchanged.
func (o *DeadlineOptions) bound(ctx context.Context, method string, stream bool) (context.Context, context.CancelFunc, error) {
	clk := clockOr(o.Clock)
	budget := deadline.Budget{Clock: clk}
	if left, ok := budget.Remaining(ctx); ok {
		if o.Reserve <= 0 {
			if left <= 0 {
				return nil, nil, notSentError(deadline.ErrExpired, method, 0, 0)
			}
			return ctx, nil, nil
		}
		c, cancel, err := budget.Reserve(ctx, o.Reserve)
		if err != nil {
			cancel()
			return nil, nil, notSentError(err, method, left, o.Reserve)
		}
		return c, cancel, nil
	}
	if d := o.timeout(method, stream); d > 0 {
		c, cancel := withTimeout(ctx, clk, d)
		return c, cancel, nil
	}
	return ctx, nil, nil
}

// UnaryDeadline returns a client interceptor that bounds every unary call
// without a deadline (PerMethod, else Default) and sends calls that have
// one with the remaining time minus Reserve. Put it first in the chain:
// everything inside it, retries and hedges included, then shares one
// deadline.
func UnaryDeadline(o DeadlineOptions) grpc.UnaryClientInterceptor {
	o.PerMethod = maps.Clone(o.PerMethod)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel, err := o.bound(ctx, method, false)
		if err != nil {
			return err
		}
		if cancel != nil {
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// StreamDeadline is UnaryDeadline for streams: a caller's deadline less
// Reserve, or PerMethod's timeout for streams opened without a deadline;
// Default does not apply to streams. A deadline it adds is released when
// the stream ends.
func StreamDeadline(o DeadlineOptions) grpc.StreamClientInterceptor {
	o.PerMethod = maps.Clone(o.PerMethod)
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		ctx, cancel, err := o.bound(ctx, method, true)
		if err != nil {
			return nil, err
		}
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if cancel == nil {
			return cs, err
		}
		if err != nil {
			cancel()
			return nil, err
		}
		return &endingStream{ClientStream: cs, end: cancel}, nil
	}
}
