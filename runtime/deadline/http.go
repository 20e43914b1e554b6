package deadline

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header carries the caller's remaining budget across an HTTP hop, as a
// decimal number of milliseconds. It is relative on purpose: absolute
// deadlines break under clock skew between hosts.
const Header = "Request-Budget-Ms"

// Transport is an http.RoundTripper that sends the request context's
// remaining budget, minus Reserve, in Header, and refuses to send a request
// whose budget is already spent (the server could only waste work on it),
// or whose budget after the reserve is under the header's unit, a
// millisecond: the header would say 0, which Middleware answers with 504.
// Requests without a deadline are sent unchanged. The zero value uses
// http.DefaultTransport, no reserve and the wall clock.
type Transport struct {
	// Base sends the request; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Reserve is kept back for the caller's own work after the response
	// (reading and decoding the body); 0 sends the whole remainder.
	Reserve time.Duration
	// Clock defaults to the wall clock.
	Clock Clock
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	left, ok := Budget{Clock: t.Clock}.Remaining(req.Context())
	if !ok {
		return base.RoundTrip(req)
	}
	send := left - t.Reserve
	if send < time.Millisecond {
		if req.Body != nil {
			req.Body.Close() // RoundTrippers must close the body, even on error
		}
		if left <= 0 {
			return nil, fmt.Errorf("%w: %s %s not sent", ErrExpired, req.Method, req.URL.Redacted())
		}
		return nil, fmt.Errorf("%w: %v left, %v reserved: %s %s not sent", ErrInsufficient, left.Round(time.Millisecond), t.Reserve, req.Method, req.URL.Redacted())
	}
	// RoundTrippers must not modify the caller's request.
	out := req.Clone(req.Context())
	out.Header.Set(Header, strconv.FormatInt(send.Milliseconds(), 10))
	return base.RoundTrip(out)
}

// ServerOptions configure Middleware. The zero value trusts the caller's
// budget as sent and sets no deadline when none is sent.
type ServerOptions struct {
	// Default is the budget of a request that carries none: the edge
	// deadline. 0 sets none.
	Default time.Duration
	// Max caps a caller's budget (a misbehaving client cannot hold a
	// worker for an hour). 0 means no cap.
	Max time.Duration
	// Clock defaults to the wall clock.
	Clock Clock
}

// Middleware sets the request context's deadline from the caller's budget
// in Header (or opts.Default when absent or malformed), never later than a
// deadline the context already has, and answers a request whose budget is
// already spent at once with 504 Gateway Timeout, without calling next.
func Middleware(next http.Handler, opts ServerOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		budget, ok := parseBudget(r.Header.Get(Header))
		if !ok {
			budget = opts.Default
		}
		if opts.Max > 0 && budget > opts.Max {
			budget = opts.Max
		}
		if ok && budget <= 0 {
			http.Error(w, "request budget exhausted before it arrived", http.StatusGatewayTimeout)
			return
		}
		if budget <= 0 {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := Budget{Clock: opts.Clock}.Ensure(r.Context(), budget)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// parseBudget reads a Header value: a non-negative decimal count of
// milliseconds. Anything else is ignored as absent.
func parseBudget(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms < 0 || ms > int64(maxBudget/time.Millisecond) {
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}

// maxBudget bounds parsed budgets so the conversion cannot overflow.
const maxBudget = 365 * 24 * time.Hour
