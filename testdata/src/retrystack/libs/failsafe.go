package libs

import (
	"context"

	failsafe "github.com/failsafe-go/failsafe-go"
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
	return failsafe.With[any](fiveTries).Run(func() error {
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
