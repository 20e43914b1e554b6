package grpcx

import (
	"context"
	"strconv"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// ServerOptions configure UnaryServer and StreamServer. The zero value
// keeps the caller's deadline as gRPC set it (from grpc-timeout), adds
// none to requests without one, sheds requests whose deadline is already
// spent, and trusts no caller's AttemptMetadata.
type ServerOptions struct {
	// Default is the deadline of a request that arrives without one: the
	// edge deadline. 0 sets none.
	Default time.Duration
	// Max caps a caller's deadline, and Default: a misbehaving client
	// cannot hold a handler for an hour. It also bounds a request that
	// arrives without a deadline when Default is 0. 0 means no cap.
	Max time.Duration
	// Trusted reports whether the caller of a request that carries
	// AttemptMetadata is trusted to say that it retries. Any client can
	// send the metadata, and one that the server believed would switch
	// the server's retries off, so nil trusts no one (the metadata is
	// ignored). TrustAll suits a server reachable only through a proxy or
	// mesh that strips the metadata from outside traffic; otherwise
	// trust what authenticates the caller (peer.FromContext's address or
	// its TLS AuthInfo, credentials.RequestInfoFromContext).
	Trusted func(ctx context.Context) bool
	// CallerRetries is what trusted callers retry: the handler's retry
	// layers leave those failures to the caller. nil means Retryable,
	// what UnaryRetry and StreamRetry retry by default; set it when the
	// callers' RetryOptions add codes or their Policy has a Retryable of
	// its own.
	CallerRetries func(error) bool
	// Clock is the clock of the deadlines set and of the time left (see
	// Clock); nil means the wall clock.
	Clock Clock
}

// TrustAll is a ServerOptions.Trusted that trusts every caller.
func TrustAll(context.Context) bool { return true }

// admit applies the options to an incoming request's context. It returns
// an error, and the handler must not run, when the request's deadline is
// already spent or its caller has gone.
func (o *ServerOptions) admit(ctx context.Context, method string) (context.Context, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, status.FromContextError(err).Err()
	}
	var cancel context.CancelFunc
	budget := o.Default
	clk := clockOr(o.Clock)
	if left, ok := (deadline.Budget{Clock: clk}).Remaining(ctx); ok {
		if left <= 0 {
			return nil, nil, status.Errorf(codes.DeadlineExceeded, "%s: deadline spent before the handler ran", method)
		}
		budget = 0 // the caller's, unless capped
		if o.Max > 0 && left > o.Max {
			budget = o.Max
		}
	} else if o.Max > 0 && (budget <= 0 || budget > o.Max) {
		budget = o.Max
	}
	if budget > 0 {
		ctx, cancel = withTimeout(ctx, clk, budget)
	}
	ctx, done := o.markCaller(ctx)
	return ctx, func() {
		done()
		if cancel != nil {
			cancel()
		}
	}, nil
}

// markCaller marks ctx with the caller's attempt, and what it retries
// (retry.WithCallerRetrying), when the request carries AttemptMetadata
// from a trusted caller.
func (o *ServerOptions) markCaller(ctx context.Context) (context.Context, func()) {
	v := metadata.ValueFromIncomingContext(ctx, AttemptMetadata)
	if len(v) == 0 || o.Trusted == nil || !o.Trusted(ctx) {
		return ctx, func() {}
	}
	n, err := strconv.Atoi(v[0])
	if err != nil || n < 1 {
		return ctx, func() {}
	}
	retries := o.CallerRetries
	if retries == nil {
		retries = Retryable
	}
	return retry.WithCallerRetrying(ctx, n, retries)
}

// UnaryServer returns a server interceptor, the gRPC twin of
// deadline.Middleware and retry.Middleware: it answers a request whose
// deadline is already spent with DeadlineExceeded without calling the
// handler (the caller has given up; the work would be wasted), caps the
// caller's deadline at Max, gives requests without one Default, and marks
// requests from trusted callers that retry (AttemptMetadata) with
// retry.WithCaller, so that the handler's retry layers leave to the
// caller the failures it retries instead of multiplying them. The mark
// ends when the handler returns. Put it first in the server's chain.
func UnaryServer(o ServerOptions) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, end, err := o.admit(ctx, info.FullMethod)
		if err != nil {
			return nil, err
		}
		defer end()
		return handler(ctx, req)
	}
}

// StreamServer is UnaryServer for streams: the handler's stream carries
// the adjusted context.
func StreamServer(o ServerOptions) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, end, err := o.admit(ss.Context(), info.FullMethod)
		if err != nil {
			return err
		}
		defer end()
		if ctx != ss.Context() {
			ss = &serverStream{ServerStream: ss, ctx: ctx}
		}
		return handler(srv, ss)
	}
}

// serverStream is a server stream with another context.
type serverStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *serverStream) Context() context.Context { return s.ctx }
