// Package gax is a stub of github.com/googleapis/gax-go/v2: the call
// options Google Cloud's generated clients take, and Invoke.
package gax

import (
	"context"
	"time"
)

type CallSettings struct {
	Retry   func() Retryer
	timeout time.Duration
}

type CallOption interface{ Resolve(*CallSettings) }

type retryOpt func() Retryer

func (o retryOpt) Resolve(s *CallSettings) { s.Retry = o }

type timeoutOpt time.Duration

func (o timeoutOpt) Resolve(s *CallSettings) { s.timeout = time.Duration(o) }

func WithRetry(fn func() Retryer) CallOption { return retryOpt(fn) }

func WithTimeout(d time.Duration) CallOption { return timeoutOpt(d) }

type Retryer interface {
	Retry(err error) (pause time.Duration, shouldRetry bool)
}

type Code uint32

type Backoff struct {
	Initial, Max time.Duration
	Multiplier   float64
}

type boRetryer struct {
	codes []Code
	bo    Backoff
}

func (r *boRetryer) Retry(err error) (time.Duration, bool) { return r.bo.Initial, len(r.codes) > 0 }

func OnCodes(cc []Code, bo Backoff) Retryer { return &boRetryer{cc, bo} }

type APICall func(context.Context, CallSettings) error

// Invoke calls the API once here; the real one retries as the settings
// say.
func Invoke(ctx context.Context, call APICall, opts ...CallOption) error {
	var s CallSettings
	for _, o := range opts {
		o.Resolve(&s)
	}
	return call(ctx, s)
}
