package slots_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/slots"
)

func sum(r *slots.Ring[int64], epoch int64) int64 {
	var n int64
	r.Sum(epoch, func(v *int64) { n += *v })
	return n
}

func TestRingSlides(t *testing.T) {
	var r slots.Ring[int64]
	for e := int64(1); e <= 10; e++ {
		*r.At(e) += e // 1 + 2 + ... + 10
	}
	if got := sum(&r, 10); got != 55 {
		t.Fatalf("window ending at 10: %d; want 55", got)
	}
	if got := sum(&r, 11); got != 54 {
		t.Fatalf("window ending at 11 (epoch 1 out): %d; want 54", got)
	}
	*r.At(11)++ // reuses epoch 1's slot
	if got := sum(&r, 11); got != 55 {
		t.Fatalf("after a count in epoch 11: %d; want 55", got)
	}
	if got := sum(&r, 30); got != 0 {
		t.Fatalf("a window long after: %d; want 0", got)
	}
	if got := sum(&r, 5); got != 14 {
		t.Fatalf("a window ending before later slots: %d; want 2+..+5 = 14 (epoch 1's slot now holds 11)", got)
	}
}

func TestEpoch(t *testing.T) {
	for _, tc := range []struct {
		elapsed, width time.Duration
		want           int64
	}{
		{0, time.Second, 1},
		{999 * time.Millisecond, time.Second, 1},
		{time.Second, time.Second, 2},
		{-time.Nanosecond, time.Second, 0},
		{-time.Second, time.Second, 0},
		{-time.Second - 1, time.Second, -1},
		{5, 0, 6}, // a zero width counts in nanoseconds
	} {
		if got := slots.Epoch(tc.elapsed, tc.width); got != tc.want {
			t.Errorf("Epoch(%v, %v) = %d; want %d", tc.elapsed, tc.width, got, tc.want)
		}
	}
	// Negative epochs land in valid slots.
	var r slots.Ring[int64]
	*r.At(-7)++
	if got := sum(&r, -7); got != 1 {
		t.Fatalf("a negative epoch's count: %d; want 1", got)
	}
}
