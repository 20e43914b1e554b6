package grpcx

import (
	"context"

	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// RetryOptions configure UnaryRetry and StreamRetry. The zero value
// retries with retry's default policy (3 attempts, 100 ms base backoff
// with full jitter, 10 s cap, no budget) what Retryable retries.
type RetryOptions struct {
	// Policy is the retry policy: attempts, backoff, budget, clock,
	// OnRetry. nil means retry's defaults. Share one Policy, and one
	// Budget, between the unary and stream interceptors of a dependency.
	// Its Retryable, if set, replaces the status classifier (and the
	// options below): it sees each attempt's error, on which status.Code
	// works.
	Policy *retry.Policy
	// ResourceExhausted retries ResourceExhausted without the server's
	// pushback too. Off: only with pushback.
	ResourceExhausted bool
	// Aborted retries Aborted, a conflict the server expects a retry of
	// the whole operation to resolve: turn it on only for clients whose
	// methods read and write again on each attempt. Off by default.
	Aborted bool
	// ReplayBuffer bounds the bytes of the messages a stream keeps to
	// replay on a new attempt (proto.Size of each). Past it the stream is
	// no longer retried. 0 means 256 KiB, gRPC's own retry buffer; a
	// negative value keeps none, so only streams that have sent nothing
	// are retried.
	ReplayBuffer int
}

// defaultReplayBuffer is gRPC's retryBufferSize.
const defaultReplayBuffer = 256 << 10

// retrier is what UnaryRetry and StreamRetry share.
type retrier struct {
	policy      *retry.Policy // never nil
	classify    classifier
	maxAttempts int
	buffer      int
}

var zeroPolicy retry.Policy

func newRetrier(o RetryOptions) *retrier {
	r := &retrier{policy: o.Policy, classify: classifier{resourceExhausted: o.ResourceExhausted, aborted: o.Aborted}}
	if r.policy == nil {
		r.policy = &zeroPolicy
	}
	r.maxAttempts = r.policy.MaxAttempts
	if r.maxAttempts <= 0 {
		r.maxAttempts = 3 // retry.Policy's default
	}
	switch {
	case o.ReplayBuffer == 0:
		r.buffer = defaultReplayBuffer
	case o.ReplayBuffer > 0:
		r.buffer = o.ReplayBuffer
	}
	return r
}

// judge returns the error an attempt failed with, as retry.Do is to see
// it: with the server's pushback, and marked with retry.Retry when it is
// retryable (see classifier.mark), so that retry.Do's default classifier
// retries it, and layers further out, in this process or (for trusted
// callers) the caller's, know that they retry it.
func (r *retrier) judge(err error, trailer metadata.MD) error {
	if err == nil {
		return nil
	}
	err = withPushback(err, trailer)
	if f := r.policy.Retryable; f != nil {
		if f(err) {
			return retry.Retry(err)
		}
		return err
	}
	return r.classify.mark(err)
}

// UnaryRetry returns a client interceptor that retries failed calls with
// retry.Do: the policy's backoff, budget and attempts, never past the
// caller's deadline, and never multiplied by another retry layer the
// call runs in (see the retry package). It retries what Retryable
// retries, with the options' additions, waits at least the server's
// pushback (grpc-retry-pushback-ms) before the next attempt, and sends
// the attempt number in AttemptMetadata on calls made inside a layer
// that retries. Each attempt is a full call through the interceptors
// after it in the chain: put the hedge, breaker and per-attempt timeout
// there.
//
// The errors it returns keep their status code (status.Code works) and
// are marked with retry.Retry when retryable, so that an enclosing retry
// layer using retry.Transient knows them; after retrying, the error also
// wraps the reason retry.Do stopped (retry.ErrAttemptsExhausted, ...).
//
// Retrying runs a call more than once: a call that failed with
// Unavailable was most likely not processed, but one that timed out may
// have been. Do not enable gRPC's own retry policy (service config) on
// the same connection: the two would multiply.
func UnaryRetry(o RetryOptions) grpc.UnaryClientInterceptor {
	r := newRetrier(o)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return statusOf(retry.Do(ctx, r.policy, func(ctx context.Context) error {
			var trailer metadata.MD
			n, _ := retry.Retrying(ctx)
			err := invoker(withAttempt(ctx, n), method, req, reply, cc, append(opts[:len(opts):len(opts)], grpc.Trailer(&trailer))...)
			return r.judge(err, trailer)
		}))
	}
}
