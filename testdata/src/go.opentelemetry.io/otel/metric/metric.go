// Package metric is a stub of OpenTelemetry's metric API for fixtures.
package metric

import "context"

type AddOption interface{ applyAdd() }

type Int64Counter interface {
	Add(ctx context.Context, incr int64, opts ...AddOption)
}

type Float64Histogram interface {
	Record(ctx context.Context, v float64)
}
