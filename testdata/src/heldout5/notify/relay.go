package notify

import (
	"context"
	"fmt"
	"time"
)

// Sink receives the events the relay forwards. The process wires in the
// implementation.
type Sink interface {
	Emit(ctx context.Context, e Event) error
}

// Relay forwards events to a sink.
type Relay struct {
	Sink Sink
}

// Forward hands an event to the sink, trying three times.
//
// heldout: clean — a retry loop around an interface method whose implementation is not in sight from this package (the doc's Not done: effects behind an interface given by the caller are not known)
func (r *Relay) Forward(ctx context.Context, e Event) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = r.Sink.Emit(ctx, e); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return fmt.Errorf("forward %s: %w", e.Type, err)
}
