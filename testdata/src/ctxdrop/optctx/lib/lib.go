// Package lib has functions beside context-taking variants that they
// call with a nil context: the variant then takes its path without one.
package lib

import (
	"context"
	"net/http"
)

// Rule checks a value; a RuleWithContext can also be handed a context.
type Rule interface{ Validate(v any) error }

// RuleWithContext is a Rule that uses a context when it gets one.
type RuleWithContext interface {
	ValidateWithContext(ctx context.Context, v any) error
}

// Check checks v in memory: no rule gets a context.
func Check(v any, rules ...Rule) error { return CheckWithContext(nil, v, rules...) }

// CheckWithContext hands ctx to the rules that take one.
func CheckWithContext(ctx context.Context, v any, rules ...Rule) error {
	for _, r := range rules {
		if rc, ok := r.(RuleWithContext); ok {
			if err := rc.ValidateWithContext(ctx, v); err != nil {
				return err
			}
			continue
		}
		if err := r.Validate(v); err != nil {
			return err
		}
	}
	return nil
}

// Fetch gets url with no context.
func Fetch(url string) (*http.Response, error) { return FetchWithContext(nil, url) }

// FetchWithContext gets url on ctx, or with no context when ctx is nil.
func FetchWithContext(ctx context.Context, url string) (*http.Response, error) {
	if ctx == nil {
		return http.Get(url)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// By makes a rule of a function that uses the context it is handed.
func By(f func(ctx context.Context, v any) error) Rule { return funcRule(f) }

type funcRule func(ctx context.Context, v any) error

func (f funcRule) Validate(any) error { return nil }

func (f funcRule) ValidateWithContext(ctx context.Context, v any) error { return f(ctx, v) }
