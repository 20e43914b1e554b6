// Package trace is a stub of OpenTelemetry's trace API for fixtures.
package trace

import "context"

type Span interface{ End() }

type Tracer interface {
	Start(ctx context.Context, name string) (context.Context, Span)
}
