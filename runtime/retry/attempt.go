package retry

import (
	"context"
	"net/http"
	"strconv"
)

// AttemptHeader tells a server that its caller retries this request and
// which attempt it is (1 for the first). A server that sees it should not
// retry the work again: Middleware puts it in the request context, where
// Do finds it and makes a single attempt.
const AttemptHeader = "Retry-Attempt"

type attemptKey struct{}

// Attempt returns the attempt number that ctx carries and true when ctx is
// inside a retried attempt: the second or later attempt of a retry layer
// of this process (any attempt, with TagFirstAttempt), or a request whose
// caller sent AttemptHeader.
func Attempt(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(attemptKey{}).(int)
	return n, ok
}

func withAttempt(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, attemptKey{}, n)
}

// Transport is an http.RoundTripper that sends AttemptHeader on requests
// made inside a retry layer: from the attempt's context, or for a first
// attempt (which runs with the caller's context) from the calling
// goroutine's stack. The zero value uses http.DefaultTransport.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	n, ok := Attempt(req.Context())
	if !ok {
		// A first attempt runs with the caller's context; the client calls
		// RoundTrip on the attempt's goroutine, where its stack tells.
		if !retryFramesOnStack(1) {
			return base.RoundTrip(req)
		}
		n = 1
	}
	out := req.Clone(req.Context())
	out.Header.Set(AttemptHeader, strconv.Itoa(n))
	return base.RoundTrip(out)
}

// Middleware marks the request context as inside a retry when the caller
// sent AttemptHeader, so retry layers in the handler make one attempt.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.Header.Get(AttemptHeader))
		if err != nil || n < 1 {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r.WithContext(withAttempt(r.Context(), n)))
	})
}
