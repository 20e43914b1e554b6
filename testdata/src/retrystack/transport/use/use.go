// Package use sends through the clients package transport hands out.
package use

import (
	"context"
	"net/http"
	"time"

	"retrystack/transport"
)

func wait(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Fetch loops around a client whose transport retries.
func Fetch(ctx context.Context, url string) (resp *http.Response, err error) {
	hc := transport.NewClient()
	for range 3 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		if resp, err = hc.Do(req); err == nil { // want `retry loop \(3 attempts\) wraps transport.retrying.RoundTrip, which retries 3× \(transport.go:\d+\): up to 9 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// Pull loops around a retrying client made in another package.
func Pull(ctx context.Context, url string) (resp *http.Response, err error) {
	c := transport.NewRetryable()
	for range 3 {
		if resp, err = c.Get(url); err == nil { // want `retry loop \(3 attempts\) wraps retryablehttp.Client.Get \(3 attempts\): up to 9 attempts per call; the client already retries`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// PullStandard sends with the *http.Client made from it.
func PullStandard(ctx context.Context, url string) (resp *http.Response, err error) {
	hc := transport.NewRetryable().StandardClient()
	for range 3 {
		if resp, err = hc.Get(url); err == nil { // want `retry loop \(3 attempts\) wraps retryablehttp.Client.StandardClient \(3 attempts\): up to 9 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// Quiet loops around a client whose retries are off: one layer.
func Quiet(ctx context.Context, url string) (resp *http.Response, err error) {
	c := transport.NewQuiet()
	for range 3 {
		if resp, err = c.Get(url); err == nil {
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// GetTwice loops around the API's transport's retries.
func GetTwice(ctx context.Context, a *transport.API, url string) (resp *http.Response, err error) {
	for range 2 {
		if resp, err = a.Get(ctx, url); err == nil { // want `retry loop \(2 attempts\) wraps transport.retrying.RoundTrip, which retries 4× \(transport.go:\d+\): up to 8 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// Through sends through the package's API, whose transport retries.
func Through(ctx context.Context, a *transport.API, url string) (resp *http.Response, err error) {
	for range 3 {
		if resp, err = a.Get(ctx, url); err == nil { // want `retry loop \(3 attempts\) wraps transport.retrying.RoundTrip, which retries 4× \(transport.go:\d+\): up to 12 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// SharedGet loops around the package variable's retrying client.
func SharedGet(ctx context.Context, url string) (resp *http.Response, err error) {
	for range 2 {
		if resp, err = transport.Shared.Get(url); err == nil { // want `retry loop \(2 attempts\) wraps retryablehttp.Client.Get \(3 attempts\): up to 6 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// DepsGet loops around a client held in another package's field.
func DepsGet(ctx context.Context, d *transport.Deps, url string) (resp *http.Response, err error) {
	for range 2 {
		if resp, err = d.HTTP.Get(url); err == nil { // want `retry loop \(2 attempts\) wraps transport.retrying.RoundTrip, which retries 3× \(transport.go:\d+\): up to 6 attempts per call`
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}

// PlainGet: the other field's client does not retry.
func PlainGet(ctx context.Context, d *transport.Deps, url string) (resp *http.Response, err error) {
	for range 2 {
		if resp, err = d.Plain.Get(url); err == nil {
			return resp, nil
		}
		wait(ctx)
	}
	return nil, err
}
