// Package sentryspan starts Sentry spans on root contexts: a span reads
// its context for the parent span only, so a root context loses trace
// correlation, not a deadline.
package sentryspan

import (
	"context"
	"net/http"

	"github.com/getsentry/sentry-go"
)

type Event struct{ Reason string }

// eventToSpan converts an event to a span; Sentry spans can only be made
// from a context.
func eventToSpan(e Event) *sentry.Span {
	span := sentry.StartSpan(context.Background(), "event")
	span.SetTag("reason", e.Reason)
	return span
}

// fetchRoot makes its own context for an outbound request.
func fetchRoot(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Post(ctx context.Context, e Event) error {
	_ = eventToSpan(e)                                          // ok: the helper's root serves a span only
	tx := sentry.StartTransaction(context.Background(), "post") // ok: a span reads values only
	defer tx.Finish()
	return fetchRoot("http://x") // want `call to sentryspan.fetchRoot drops the caller's context`
}
