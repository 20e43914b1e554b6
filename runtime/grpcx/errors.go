package grpcx

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// statusError is a gRPC status made here that keeps its cause, so that
// both status.Code and errors.Is work on it: an open circuit is
// Unavailable to gRPC code and breaker.ErrOpen to errors.Is; a call
// refused for lack of time is DeadlineExceeded and deadline.ErrInsufficient.
type statusError struct {
	st    *status.Status
	cause error
}

func (e *statusError) Error() string              { return e.st.Err().Error() }
func (e *statusError) GRPCStatus() *status.Status { return e.st }
func (e *statusError) Unwrap() error              { return e.cause }

// circuitOpenError answers a call the breaker refused: Unavailable, like
// a server that cannot take the call, wrapping the *breaker.OpenError
// (errors.Is(err, breaker.ErrOpen); retry layers never retry it).
func circuitOpenError(err error, method string) error {
	return &statusError{st: status.Newf(codes.Unavailable, "%s not sent: %v", method, err), cause: err}
}

// PushbackTrailer is the trailer in which a server tells clients how long
// to wait before retrying, in milliseconds (gRPC's retry design, A6). A
// negative or malformed value asks the client not to retry at all.
const PushbackTrailer = "grpc-retry-pushback-ms"

// pushbackError is a failed call's error together with the server's
// pushback. Its RetryAfter method is what retry.Do reads to wait at least
// that long before the next attempt.
type pushbackError struct {
	err     error
	after   time.Duration
	refused bool // negative or malformed: do not retry
}

func (e *pushbackError) Error() string { return e.err.Error() }
func (e *pushbackError) Unwrap() error { return e.err }

// GRPCStatus is the call's status, unchanged.
func (e *pushbackError) GRPCStatus() *status.Status {
	s, _ := status.FromError(e.err)
	return s
}

// RetryAfter is the server's pushback; 0 when it asked for no retry.
func (e *pushbackError) RetryAfter() time.Duration { return e.after }

// maxPushback bounds a parsed pushback so the conversion cannot overflow;
// retry.Do still never sleeps past the caller's deadline.
const maxPushback = 24 * time.Hour

// withPushback attaches the pushback found in a failed call's trailer to
// its error.
func withPushback(err error, trailer metadata.MD) error {
	v := trailer.Get(PushbackTrailer)
	if err == nil || len(v) == 0 {
		return err
	}
	ms, perr := strconv.ParseInt(v[0], 10, 64)
	if perr != nil || ms < 0 {
		return &pushbackError{err: err, refused: true}
	}
	d := maxPushback
	if ms < int64(maxPushback/time.Millisecond) {
		d = time.Duration(ms) * time.Millisecond
	}
	return &pushbackError{err: err, after: d}
}

// attemptTimeoutError is an attempt that ran out of its own time (the
// per-attempt timeout, or a stream's setup timeout) while the caller's
// context was alive: DeadlineExceeded to gRPC code, and retryable, as
// the caller still has time for another attempt.
type attemptTimeoutError struct {
	err   error // what the call returned
	what  string
	limit time.Duration
}

func (e *attemptTimeoutError) Error() string { return e.GRPCStatus().Err().Error() }
func (e *attemptTimeoutError) Unwrap() error { return e.err }

func (e *attemptTimeoutError) GRPCStatus() *status.Status {
	return status.Newf(codes.DeadlineExceeded, "%s timed out after %v", e.what, e.limit)
}

// ownTimeout converts the error of a call made under ctx, a context with a
// timeout of limit derived from parent, into an attemptTimeoutError when
// the timeout, not the parent, ended the call.
func ownTimeout(clk Clock, parent, ctx context.Context, err error, what string, limit time.Duration) error {
	if err == nil || parent.Err() != nil {
		return err
	}
	switch status.Code(err) {
	case codes.DeadlineExceeded, codes.Canceled:
	default:
		return err
	}
	if cause := context.Cause(ctx); cause == context.DeadlineExceeded || cause == errSetupTimeout {
		return &attemptTimeoutError{err: err, what: what, limit: limit}
	}
	// The server's copy of the deadline (grpc-timeout, rounded down to
	// its unit) can end the call a moment before ctx's own timer fires:
	// the deadline is still the attempt's if it has (nearly) passed.
	if d, ok := ctx.Deadline(); ok && ctx.Err() == nil && d.Sub(clk.Now()) <= time.Millisecond+limit/100 {
		if pd, ok := parent.Deadline(); !ok || d.Before(pd) {
			return &attemptTimeoutError{err: err, what: what, limit: limit}
		}
	}
	return err
}

// notSentError is a call refused before it was sent because the caller's
// deadline leaves no time for it.
func notSentError(err error, method string, left, reserve time.Duration) error {
	msg := fmt.Sprintf("%s not sent: %v", method, err)
	if left > 0 {
		msg = fmt.Sprintf("%s not sent: %v (%v left, %v reserved)", method, err, left.Round(time.Millisecond), reserve)
	}
	return &statusError{st: status.New(codes.DeadlineExceeded, msg), cause: err}
}

// statusOf returns err as a gRPC status error: the runtime's layers
// return the caller's context error as it is (a hedge or retry that
// stopped because the caller gave up), which gRPC code would read as
// Unknown. It keeps the context error for errors.Is.
func statusOf(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &statusError{st: status.FromContextError(err), cause: err}
	}
	return err
}
