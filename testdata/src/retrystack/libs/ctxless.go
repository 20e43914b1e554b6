package libs

import (
	"context"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
)

// BackoffBlind: the backoff is not wrapped with the context.
func (s *Service) BackoffBlind(ctx context.Context) error {
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2)
	return backoff.Retry(func() error { return s.ping(ctx) }, b) // want `backoff.Retry is not given the context in scope, .*; give it the context with backoff.WithContext\(b, ctx\)`
}

// BackoffSeesContext: WithContext inside the count wrapper.
func (s *Service) BackoffSeesContext(ctx context.Context) error {
	b := backoff.WithMaxRetries(backoff.WithContext(backoff.NewExponentialBackOff(), ctx), 2)
	return backoff.Retry(func() error { return s.ping(ctx) }, b)
}

// RetryGoSeesContext passes retry.Context.
func (s *Service) RetryGoSeesContext(ctx context.Context) error {
	return retrygo.Do(func() error { return s.ping(ctx) }, retrygo.Attempts(3), retrygo.Context(ctx))
}

// Given: the backoff comes from the caller, who may have wrapped it.
func (s *Service) Given(ctx context.Context, b backoff.BackOff) error {
	return backoff.Retry(func() error { return s.ping(ctx) }, b)
}

// NoContext: nothing to give.
func (s *Service) NoContext() error {
	return retrygo.Do(func() error { return s.ping(context.Background()) }, retrygo.Attempts(3))
}

// LocalWork: retrying local work blindly is no resilience concern.
func LocalWork(ctx context.Context, parse func() error) error {
	return retrygo.Do(parse, retrygo.Attempts(3))
}
