package libs

import (
	"context"

	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

var fiveTries = retrypolicy.NewBuilder[any]().WithMaxRetries(4).Build()

// FailsafeDefault: a policy with defaults makes 3 attempts.
func (s *Service) FailsafeDefault(ctx context.Context) error {
	return failsafe.With[any](retrypolicy.NewWithDefaults[any]()).WithContext(ctx).Run(func() error {
		_, err := s.api.GetAccount(ctx, "1") // want `failsafe.Executor.Run \(3 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 27 attempts per call`
		return err
	})
}

// FailsafeBuilt: a package-level policy of 5 attempts.
func (s *Service) FailsafeBuilt(ctx context.Context) error {
	return failsafe.With[any](fiveTries).Run(func() error { // want `failsafe.Executor.Run is not given the context in scope, .*; give it the context with WithContext\(ctx\) on the executor`
		_, err := s.api.GetAccount(ctx, "1") // want `failsafe.Executor.Run \(5 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 45 attempts per call`
		return err
	})
}

// FailsafeOnce: WithMaxAttempts(1) retries nothing.
func (s *Service) FailsafeOnce(ctx context.Context) (any, error) {
	rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(1).Build()
	return failsafe.With[any](rp).Get(func() (any, error) {
		return s.api.GetAccount(ctx, "1")
	})
}

// RetryAroundBreaker: the retry policy is outermost and retries whatever
// fails, the breaker's open error included.
func (s *Service) RetryAroundBreaker(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(2).Build()
	cb := circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).Build()
	return failsafe.With[any](rp, cb).WithContext(ctx).Run(func() error { // want `retry policy runs outside the circuit breaker and retries every failure, so it retries the open circuit's circuitbreaker.ErrOpen`
		return s.ping(ctx)
	})
}

// RetryAbortsOnOpen: the policy gives up on the open error.
func (s *Service) RetryAbortsOnOpen(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().AbortOnErrors(circuitbreaker.ErrOpen).Build()
	return failsafe.With[any](rp, circuitbreaker.NewWithDefaults[any]()).WithContext(ctx).Run(func() error {
		return s.ping(ctx)
	})
}

// BreakerOutside: the breaker wraps the retries, which never see its
// open error.
func (s *Service) BreakerOutside(ctx context.Context) error {
	return failsafe.With[any](circuitbreaker.NewWithDefaults[any](), retrypolicy.NewWithDefaults[any]()).WithContext(ctx).Run(func() error {
		return s.ping(ctx)
	})
}
