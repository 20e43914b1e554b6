package bench

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	fscb "github.com/failsafe-go/failsafe-go/circuitbreaker"
	fsretry "github.com/failsafe-go/failsafe-go/retrypolicy"
	fstimeout "github.com/failsafe-go/failsafe-go/timeout"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/deadline"
	rvretry "github.com/resilvet/resilvet/runtime/retry"
)

// requestCtx is what every real call runs under: a request context that
// can be cancelled (the server's), carrying a deadline.
func requestCtx(b *testing.B) context.Context {
	parent, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	ctx, cancelDeadline := context.WithTimeout(parent, time.Hour)
	b.Cleanup(cancelDeadline)
	return ctx
}

// onePercentFailing fails one call in a hundred, below every breaker's
// threshold, and is not retried (a permanent error), so the window holds
// failures while the circuit stays closed. It counts its calls in ran.
func onePercentFailing() error {
	ran.Add(1)
	if rand.Uint32()%100 == 0 {
		return errFlaky
	}
	return nil
}

// ran counts the protected operation's calls, for composed.
var ran atomic.Int64

// composed is both for a composition around onePercentFailing or
// clientCall: it fails the row unless the operation ran once per call,
// so that a breaker that opened (refusing calls at once, without the
// timeout or the operation) cannot pass for a fast composition.
func composed(b *testing.B, call func()) {
	b.Helper()
	for _, mode := range []string{"serial", "parallel"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			ran.Store(0)
			if mode == "serial" {
				for b.Loop() {
					call()
				}
			} else {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						call()
					}
				})
			}
			if n := ran.Load(); n != int64(b.N) {
				b.Fatalf("the operation ran %d times in %d calls: a layer refused calls", n, b.N)
			}
		})
	}
}

// failsafeBreaker is failsafe-go's circuit breaker set as resilvet's
// breaker.Settings{} is: the last 100 calls, opening at half of them
// failed, 5 s open. failsafe-go's default opens after one failure for a
// minute, which the one failure in a hundred would trip at once.
func failsafeBreaker() fscb.CircuitBreaker[any] {
	return fscb.NewBuilder[any]().WithFailureThresholdRatio(50, 100).WithDelay(5 * time.Second).Build()
}

// BenchmarkRetryFirstAttemptSucceedsDeadline is the retry row under a
// request context with a deadline and a cancellable parent: the retry
// layer reads the clock to budget its attempts against the deadline.
func BenchmarkRetryFirstAttemptSucceedsDeadline(b *testing.B) {
	ctx := requestCtx(b)
	p := &rvretry.Policy{}
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _ = rvretry.Do(ctx, p, ok) }) })
	fs := failsafe.With[any](fsretry.NewWithDefaults[any]())
	b.Run("failsafe-go", func(b *testing.B) { both(b, func() { _ = fs.WithContext(ctx).Run(work) }) })
}

// BenchmarkRecommendedComposition is the stack the runtime's docs
// recommend, per call: a deadline at the edge (Ensure on a request
// context that already has one), retry with a shared budget, a breaker
// whose window holds failures (one call in a hundred fails), and a
// per-attempt timeout. failsafe-go runs the same policies (retry,
// circuit breaker, timeout) under the same edge deadline, which a
// failsafe-go user sets with context.WithTimeout.
func BenchmarkRecommendedComposition(b *testing.B) {
	ctx := requestCtx(b)
	br := breaker.New(breaker.Settings{})
	p := &rvretry.Policy{Budget: &budget.Ratio{}, Retryable: func(error) bool { return false }}
	call := func() {
		ctx, cancel := deadline.Ensure(ctx, 10*time.Second)
		defer cancel()
		_ = rvretry.Do(ctx, p, func(ctx context.Context) error {
			return br.Do(ctx, func(ctx context.Context) error {
				ctx, cancel := context.WithTimeout(ctx, time.Second)
				defer cancel()
				return onePercentFailing()
			})
		})
	}
	b.Run("resilvet", func(b *testing.B) { composed(b, call) })
	fs := failsafe.With[any](
		fsretry.NewBuilder[any]().AbortIf(func(any, error) bool { return true }).Build(),
		failsafeBreaker(),
		fstimeout.New[any](time.Second),
	)
	b.Run("failsafe-go", func(b *testing.B) {
		composed(b, func() {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_ = fs.WithContext(ctx).Run(onePercentFailing)
		})
	})
}

// clientCall is an outbound call that watches its context as network
// clients do (net.Dialer, net/http and grpc register a function to run
// when the context ends, with context.AfterFunc), then fails one call in
// a hundred.
func clientCall(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {})
	defer stop()
	return onePercentFailing()
}

// BenchmarkRecommendedCompositionClientCall is the recommended
// composition around an operation that uses its context as a client
// does, on both sides: failsafe-go's execution context (its timeout
// policy's) reaches the operation through RunWithExecution.
func BenchmarkRecommendedCompositionClientCall(b *testing.B) {
	ctx := requestCtx(b)
	br := breaker.New(breaker.Settings{})
	p := &rvretry.Policy{Budget: &budget.Ratio{}, Retryable: func(error) bool { return false }}
	b.Run("resilvet", func(b *testing.B) {
		composed(b, func() {
			ctx, cancel := deadline.Ensure(ctx, 10*time.Second)
			defer cancel()
			_ = rvretry.Do(ctx, p, func(ctx context.Context) error {
				return br.Do(ctx, func(ctx context.Context) error {
					ctx, cancel := context.WithTimeout(ctx, time.Second)
					defer cancel()
					return clientCall(ctx)
				})
			})
		})
	})
	fs := failsafe.With[any](
		fsretry.NewBuilder[any]().AbortIf(func(any, error) bool { return true }).Build(),
		failsafeBreaker(),
		fstimeout.New[any](time.Second),
	)
	b.Run("failsafe-go", func(b *testing.B) {
		composed(b, func() {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_ = fs.WithContext(ctx).RunWithExecution(func(exec failsafe.Execution[any]) error {
				return clientCall(exec.Context())
			})
		})
	})
}
