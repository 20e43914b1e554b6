package breaker_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
)

// BenchmarkDoClosedWithFailures is the closed path when the window is not
// clean: one call in five fails (20%, under the default 50% failure rate,
// so the circuit stays closed), and most calls change a slot and a
// counter instead of taking the write-nothing shortcut of BenchmarkClosed.
func BenchmarkDoClosedWithFailures(b *testing.B) {
	br := breaker.New(breaker.Settings{})
	ctx := context.Background()
	i := 0
	fn := func(context.Context) error {
		i++
		if i%5 == 0 {
			return errDown
		}
		return nil
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = br.Do(ctx, fn)
	}
	if br.State() != breaker.Closed {
		b.Fatalf("state %v at 20%% failures; the benchmark must stay on the closed path", br.State())
	}
}

// BenchmarkDoClosedParallel is BenchmarkClosed from every core at once:
// the contention the lock-free closed path exists for.
func BenchmarkDoClosedParallel(b *testing.B) {
	br := breaker.New(breaker.Settings{})
	ctx := context.Background()
	fn := func(context.Context) error { return nil }
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = br.Do(ctx, fn)
		}
	})
}

// BenchmarkDoClosedWithFailuresParallel is BenchmarkDoClosedWithFailures
// from every core at once: slots and counters written concurrently.
func BenchmarkDoClosedWithFailuresParallel(b *testing.B) {
	br := breaker.New(breaker.Settings{})
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		fn := func(context.Context) error {
			i++
			if i%5 == 0 {
				return errDown
			}
			return nil
		}
		for pb.Next() {
			_ = br.Do(ctx, fn)
		}
	})
	if br.State() != breaker.Closed {
		b.Fatalf("state %v at 20%% failures; the benchmark must stay on the closed path", br.State())
	}
}

// BenchmarkClosedWithHooks is BenchmarkClosed with every hook set: the
// price of OnOutcome on the lock-free path, two clock reads and a call.
func BenchmarkClosedWithHooks(b *testing.B) {
	var outcomes atomic.Int64
	br := breaker.New(breaker.Settings{
		OnStateChange: func(string, breaker.State, breaker.State) {},
		OnReject:      func(string, *breaker.OpenError) {},
		OnOutcome:     func(string, breaker.Outcome, time.Duration) { outcomes.Add(1) },
	})
	ctx := context.Background()
	fn := func(context.Context) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		_ = br.Do(ctx, fn)
	}
}
