package grpcx_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestRetryableByCode: the status classifier retries Unavailable only,
// of the plain codes; marks and open circuits as the runtime defines them.
func TestRetryableByCode(t *testing.T) {
	retried := map[codes.Code]bool{codes.Unavailable: true}
	for c := codes.OK + 1; c <= codes.Unauthenticated; c++ {
		err := status.Error(c, "x")
		if got := grpcx.Retryable(err); got != retried[c] {
			t.Errorf("Retryable(%v) = %v", c, got)
		}
		if got := grpcx.Retryable(fmt.Errorf("wrapped: %w", err)); got != retried[c] {
			t.Errorf("Retryable(wrapped %v) = %v", c, got)
		}
	}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"marked retry", retry.Retry(status.Error(codes.InvalidArgument, "x")), true},
		{"unexpected EOF", io.ErrUnexpectedEOF, true},
		{"plain error", errors.New("x"), false},
		{"open circuit", &breaker.OpenError{Name: "b", State: breaker.Open}, false},
		{"context deadline", context.DeadlineExceeded, false},
	}
	for _, c := range cases {
		if got := grpcx.Retryable(c.err); got != c.want {
			t.Errorf("Retryable(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBreakerOutcomeByCode: answers on the merits are successes, the
// caller's own end is ignored, the dependency's trouble is a failure.
func TestBreakerOutcomeByCode(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(live)
	cancel()
	want := map[codes.Code]breaker.Outcome{
		codes.Canceled:           breaker.Ignore,
		codes.Unknown:            breaker.Failure,
		codes.InvalidArgument:    breaker.Success,
		codes.DeadlineExceeded:   breaker.Failure, // the caller is alive: an attempt's own timeout
		codes.NotFound:           breaker.Success,
		codes.AlreadyExists:      breaker.Success,
		codes.PermissionDenied:   breaker.Success,
		codes.ResourceExhausted:  breaker.Failure,
		codes.FailedPrecondition: breaker.Success,
		codes.Aborted:            breaker.Success,
		codes.OutOfRange:         breaker.Success,
		codes.Unimplemented:      breaker.Success,
		codes.Internal:           breaker.Failure,
		codes.Unavailable:        breaker.Failure,
		codes.DataLoss:           breaker.Failure,
		codes.Unauthenticated:    breaker.Success,
	}
	for c, o := range want {
		if got := grpcx.BreakerOutcome(live, status.Error(c, "x")); got != o {
			t.Errorf("BreakerOutcome(%v) = %v, want %v", c, got, o)
		}
	}
	if got := grpcx.BreakerOutcome(done, status.Error(codes.DeadlineExceeded, "x")); got != breaker.Ignore {
		t.Errorf("the caller's own deadline: %v, want ignore", got)
	}
	if got := grpcx.BreakerOutcome(live, nil); got != breaker.Success {
		t.Errorf("nil: %v", got)
	}
	if got := grpcx.BreakerOutcome(live, breaker.ClientError(status.Error(codes.Unavailable, "x"))); got != breaker.Success {
		t.Errorf("ClientError: %v", got)
	}
	if got := grpcx.BreakerOutcome(live, errors.New("x")); got != breaker.Failure {
		t.Errorf("a plain error: %v, want breaker.Classify's failure", got)
	}
	if got := grpcx.BreakerOutcome(live, &breaker.OpenError{}); got != breaker.Ignore {
		t.Errorf("an open circuit further in: %v, want ignore", got)
	}
}

func TestIdempotentMethods(t *testing.T) {
	m := grpcx.IdempotentMethods("/pkg.Svc/Get", "/pkg.Svc/List")
	if !m.Contains("/pkg.Svc/Get") || m.Contains("/pkg.Svc/Put") {
		t.Fatal("Contains does not match the declaration")
	}
	for _, bad := range []string{"pkg.Svc/Get", "/pkg.Svc", "/pkg.Svc/", "//Get", "/pkg.Svc/Get/x", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("IdempotentMethods(%q) did not panic", bad)
				}
			}()
			grpcx.IdempotentMethods(bad)
		}()
	}
}
