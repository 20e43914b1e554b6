// Package bench measures the resilvet runtime against the Go libraries it
// must beat, on the same work, serial and parallel, next to the floors (a
// direct call, an atomic add, a mutex). It is a module of its own so the
// runtime's go.mod stays empty. Run from bench/:
//
//	go test -run '^$' -bench . -count 6 -benchtime 200ms | tee new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest new.txt
package bench

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v5"
	"github.com/cristalhq/hedgedhttp"
	"github.com/failsafe-go/failsafe-go"
	fscb "github.com/failsafe-go/failsafe-go/circuitbreaker"
	fshedge "github.com/failsafe-go/failsafe-go/hedgepolicy"
	fsretry "github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/sony/gobreaker/v2"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/hedge"
	rvretry "github.com/resilvet/resilvet/runtime/retry"
)

var (
	ctx  = context.Background()
	ok   = func(context.Context) error { return nil }
	sink atomic.Int64
)

//go:noinline
func work() error { return nil }

func both(b *testing.B, fn func()) {
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fn()
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				fn()
			}
		})
	})
}

func BenchmarkFloor(b *testing.B) {
	b.Run("direct", func(b *testing.B) { both(b, func() { _ = work() }) })
	b.Run("atomic", func(b *testing.B) { both(b, func() { sink.Add(1) }) })
	var mu sync.Mutex
	n := 0
	b.Run("mutex", func(b *testing.B) { both(b, func() { mu.Lock(); n++; mu.Unlock() }) })
}

func BenchmarkBreakerClosed(b *testing.B) {
	rv := breaker.New(breaker.Settings{})
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _ = rv.Do(ctx, ok) }) })
	gb := gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{})
	b.Run("gobreaker", func(b *testing.B) {
		both(b, func() { _, _ = gb.Execute(func() (struct{}, error) { return struct{}{}, work() }) })
	})
	fs := failsafe.With[any](fscb.NewWithDefaults[any]())
	b.Run("failsafe-go", func(b *testing.B) { both(b, func() { _ = fs.Run(work) }) })
}

// BenchmarkBreakerClosedOnePercentFailing is the closed path when the
// window is never clean: one call in a hundred fails (below every
// breaker's threshold), so resilvet's window records every outcome.
func BenchmarkBreakerClosedOnePercentFailing(b *testing.B) {
	op := func() error {
		if rand.Uint32()%100 == 0 { // per-thread generator: no shared write
			return errFlaky
		}
		return nil
	}
	rv := breaker.New(breaker.Settings{})
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _ = rv.Do(ctx, func(context.Context) error { return op() }) }) })
	gb := gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{})
	b.Run("gobreaker", func(b *testing.B) {
		both(b, func() { _, _ = gb.Execute(func() (struct{}, error) { return struct{}{}, op() }) })
	})
}

var errFlaky = errors.New("flaky")

func BenchmarkRetryFirstAttemptSucceeds(b *testing.B) {
	p := &rvretry.Policy{}
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _ = rvretry.Do(ctx, p, ok) }) })
	b.Run("backoff", func(b *testing.B) {
		both(b, func() {
			_, _ = backoff.Retry(ctx, func() (struct{}, error) { return struct{}{}, work() }, backoff.WithMaxTries(3))
		})
	})
	b.Run("retry-go", func(b *testing.B) { both(b, func() { _ = retry.Do(work, retry.Attempts(3)) }) })
	fs := failsafe.With[any](fsretry.NewWithDefaults[any]())
	b.Run("failsafe-go", func(b *testing.B) { both(b, func() { _ = fs.Run(work) }) })
}

func BenchmarkRetryAroundBreaker(b *testing.B) {
	br := breaker.New(breaker.Settings{})
	p := &rvretry.Policy{}
	inner := func(ctx context.Context) error { return br.Do(ctx, ok) }
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _ = rvretry.Do(ctx, p, inner) }) })
	fs := failsafe.With[any](fsretry.NewWithDefaults[any](), fscb.NewWithDefaults[any]())
	b.Run("failsafe-go", func(b *testing.B) { both(b, func() { _ = fs.Run(work) }) })
}

type instant struct{}

func (instant) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

func BenchmarkHedgePrimaryBeforeDelay(b *testing.B) {
	p := &hedge.Policy{Delay: time.Hour}
	op := hedge.Idempotent(func(context.Context) (int, error) { return 1, nil })
	b.Run("resilvet", func(b *testing.B) { both(b, func() { _, _ = hedge.Do(ctx, p, op) }) })
	fs := failsafe.With[int](fshedge.NewWithDelay[int](time.Hour))
	b.Run("failsafe-go", func(b *testing.B) { both(b, func() { _, _ = fs.Get(func() (int, error) { return 1, nil }) }) })
	rt, err := hedgedhttp.NewRoundTripper(time.Hour, 2, instant{})
	if err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	b.Run("hedgedhttp", func(b *testing.B) {
		both(b, func() {
			resp, err := rt.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
			}
		})
	})
}
