package hedge_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
)

// The common call: the first copy answers before the hedge is due. Every
// real request has a cancellable context, so the benchmarks with one are
// the ones to watch; Background is the floor.

var answerAtOnce = hedge.Idempotent(func(context.Context) (int, error) { return 1, nil })

func benchPrimary(b *testing.B, ctx context.Context, p *hedge.Policy) {
	b.ReportAllocs()
	for b.Loop() {
		hedge.Do(ctx, p, answerAtOnce)
	}
}

func BenchmarkPrimaryAnswersBeforeDelay(b *testing.B) {
	benchPrimary(b, context.Background(), &hedge.Policy{Delay: time.Hour})
}

func BenchmarkPrimaryAnswersBeforeDelayCancellableParent(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchPrimary(b, ctx, &hedge.Policy{Delay: time.Hour})
}

func BenchmarkPrimaryAnswersBeforeDelayDeadlineParent(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	benchPrimary(b, ctx, &hedge.Policy{Delay: time.Hour})
}

// Delay 0: the adaptive delay, which times every call.
func BenchmarkPrimaryAnswersBeforeAdaptiveDelayCancellableParent(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchPrimary(b, ctx, &hedge.Policy{InitialDelay: time.Hour})
}

// The common call with both hooks set: OnWin runs on every call.
func BenchmarkPrimaryAnswersBeforeDelayWithHooksCancellableParent(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wins atomic.Int64
	benchPrimary(b, ctx, &hedge.Policy{Delay: time.Hour, OnHedge: func(int) {}, OnWin: func(int) { wins.Add(1) }})
}
