package grpcx

import (
	"context"
	"errors"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Retryable reports whether a failed gRPC call may be retried, by its
// status code, for use with or without the interceptors:
//
//   - Unavailable: yes; the server, or the way to it, is down for now.
//   - ResourceExhausted: only with the server's pushback (the
//     grpc-retry-pushback-ms trailer, which UnaryRetry and StreamRetry
//     read and honour as the delay): without it the quota is usually the
//     caller's own and retrying only spends more of it.
//   - An attempt's own timeout (UnaryAttemptTimeout, StreamSetupTimeout):
//     yes, the caller still had time.
//   - A pushback that is negative or malformed: no, the server asked.
//   - An open circuit (breaker.ErrOpen): no, never.
//   - Errors marked with retry.Retry, and errors that are not gRPC
//     statuses: as retry.Transient says.
//   - Everything else: no. DeadlineExceeded and Canceled are the
//     caller's own deadline or cancellation (the classifier cannot tell
//     otherwise; retry.Do never asks once the caller's context is done),
//     and Aborted, InvalidArgument, NotFound, AlreadyExists,
//     PermissionDenied, Unauthenticated, FailedPrecondition, OutOfRange,
//     Unimplemented, Internal, Unknown and DataLoss fail the same way
//     again. RetryOptions can add Aborted and ResourceExhausted.
func Retryable(err error) bool { return classifier{}.retryable(err) }

// classifier is Retryable with RetryOptions' additions.
type classifier struct {
	resourceExhausted bool
	aborted           bool
}

func (c classifier) retryable(err error) bool {
	if err == nil || retry.CircuitOpen(err) {
		return false
	}
	pb, pushedBack := errors.AsType[*pushbackError](err)
	if pushedBack && pb.refused {
		return false
	}
	if retry.Transient(err) {
		return true // marked with retry.Retry, or a network error
	}
	if _, ok := errors.AsType[*attemptTimeoutError](err); ok {
		return true
	}
	st, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch st.Code() {
	case codes.Unavailable:
		return true
	case codes.ResourceExhausted:
		return pushedBack || c.resourceExhausted
	case codes.Aborted:
		return c.aborted
	}
	return false
}

// mark returns err marked with retry.Retry when it is retryable, so that
// every retry layer that reads marks (retry.Transient: the default of
// retry.Policy, of hedge.Policy.Fatal, and what a server's layers assume
// of a trusted caller) knows what this package knows about gRPC codes.
// That is what keeps layers from multiplying across a gRPC hop: a server
// handler's retry layer leaves to its trusted caller the failures the
// caller retries, and it can only tell which those are from the mark.
func (c classifier) mark(err error) error {
	if c.retryable(err) {
		return retry.Retry(err)
	}
	return err
}

// BreakerOutcome classifies a finished gRPC call for a circuit breaker;
// ctx is the caller's context (the breaker interceptors pass the context
// they were called with, outside any per-attempt timeout):
//
//   - Success: no error, and the codes of a server that answered the
//     call on its merits: InvalidArgument, NotFound, AlreadyExists,
//     PermissionDenied, Unauthenticated, FailedPrecondition, Aborted,
//     OutOfRange and Unimplemented. Opening the circuit on them would
//     cut off a healthy dependency for its callers' mistakes. Errors
//     marked with breaker.ClientError too.
//   - Ignore: the caller's own cancellation or deadline (ctx is done, or
//     its deadline is within 2 ms: the server's copy of the deadline may
//     end the call a moment before the caller's timer fires),
//     Canceled in any case, and an open circuit further in: they say
//     nothing about the dependency.
//   - Failure: Unavailable, Internal, Unknown, DataLoss,
//     ResourceExhausted, and DeadlineExceeded while ctx is alive (an
//     attempt's own timeout, or the server's). Errors that are not gRPC
//     statuses are as breaker.Classify says.
func BreakerOutcome(ctx context.Context, err error) breaker.Outcome {
	if err == nil {
		return breaker.Success
	}
	if retry.CircuitOpen(err) {
		return breaker.Ignore
	}
	if breaker.Classify(ctx, err) == breaker.Success {
		return breaker.Success // marked with breaker.ClientError
	}
	st, ok := status.FromError(err)
	if !ok {
		return breaker.Classify(ctx, err)
	}
	switch st.Code() {
	case codes.OK,
		codes.InvalidArgument, codes.NotFound, codes.AlreadyExists,
		codes.PermissionDenied, codes.Unauthenticated, codes.FailedPrecondition,
		codes.Aborted, codes.OutOfRange, codes.Unimplemented:
		return breaker.Success
	case codes.Canceled:
		return breaker.Ignore
	case codes.DeadlineExceeded:
		if spent(ctx) {
			return breaker.Ignore
		}
	}
	return breaker.Failure
}

// deadlineSlack is how close to its deadline a context counts as spent:
// the server's copy of a deadline (grpc-timeout, rounded down to its
// unit) can end a call a moment before the caller's own timer fires.
const deadlineSlack = 2 * time.Millisecond

// spent reports whether ctx is done or its deadline (nearly) passed.
func spent(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && time.Until(d) <= deadlineSlack
}
