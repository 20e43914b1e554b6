// Package deadline is a stub of the resilvet runtime's deadline package:
// the API the suggested fixes use.
package deadline

import (
	"context"
	"time"
)

func Ensure(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

func Reserve(ctx context.Context, margin time.Duration) (context.Context, context.CancelFunc, error) {
	c, cancel := context.WithCancel(ctx)
	return c, cancel, nil
}
