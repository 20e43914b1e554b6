// Package minproduct is run with min-product 8: nests of 8 attempts or
// fewer are silent, larger and unbounded ones are reported.
package minproduct

import (
	"context"
	"time"

	"retrystack/api"
)

type Service struct{ api *api.API }

// Small: 2 × 3 × 3 = 18 attempts, above 8.
func (s *Service) Small(ctx context.Context) (string, error) {
	var err error
	for i := 0; i < 2; i++ {
		var name string
		if name, err = s.api.GetAccount(ctx, "1"); err == nil { // want `retry loop \(2 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 18 attempts per call`
			return name, nil
		}
		pause(ctx)
	}
	return "", err
}

// Tiny: 2 × 3 = 6 attempts, at most 8: silent.
func (s *Service) Tiny(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = s.once(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

func (s *Service) once(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = s.api.Lookup(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Forever is unbounded: always reported.
func (s *Service) Forever(ctx context.Context) {
	for {
		if err := s.once(ctx); err == nil { // want `retry loop \(unbounded\) wraps minproduct.Service.once, which retries 3×: attempts without bound per call` `retry loop around .* never leaves while the call fails`
			return
		}
		pause(ctx)
	}
}

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
