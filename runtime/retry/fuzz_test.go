package retry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

// FuzzDo checks Do's invariants over arbitrary policies, failure sequences
// and deadlines: it never makes more attempts than allowed, never retries
// a non-retryable error, never sleeps longer than the cap (or the
// server's pushback), and never sleeps past the deadline.
func FuzzDo(f *testing.F) {
	f.Add(uint8(3), uint16(100), uint16(1000), uint16(0), []byte{1, 1, 0})
	f.Add(uint8(0), uint16(1), uint16(1), uint16(250), []byte{1, 2, 1, 1, 1})
	f.Add(uint8(10), uint16(500), uint16(100), uint16(900), []byte{3, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, maxAttempts uint8, baseMs, capMs, deadlineMs uint16, outcomes []byte) {
		leaktest.Check(t)
		fake := clock.NewFake(time.Now().Add(time.Hour))
		ctx := context.Background()
		var deadlineAt time.Time
		if deadlineMs > 0 {
			deadlineAt = fake.Now().Add(time.Duration(deadlineMs) * time.Millisecond)
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadlineAt)
			defer cancel()
		}
		pushback := 2 * time.Second
		p := &retry.Policy{
			MaxAttempts: int(maxAttempts % 12),
			BaseDelay:   time.Duration(baseMs) * time.Millisecond,
			MaxDelay:    time.Duration(capMs) * time.Millisecond,
			Clock:       fake,
			Sleep: func(ctx context.Context, d time.Duration) error {
				limit := p0(capMs)
				if d > limit && d != pushback {
					t.Fatalf("slept %v; cap %v", d, limit)
				}
				if !deadlineAt.IsZero() && fake.Now().Add(d).After(deadlineAt) {
					t.Fatalf("slept past the deadline")
				}
				fake.Advance(d)
				return nil
			},
		}
		calls, firstPermanent := 0, 0
		err := retry.Do(ctx, p, func(context.Context) error {
			calls++
			if calls > len(outcomes) {
				return nil
			}
			fake.Advance(10 * time.Millisecond)
			switch outcomes[calls-1] % 4 {
			case 0:
				return nil
			case 1:
				return errFlaky
			case 2:
				if firstPermanent == 0 {
					firstPermanent = calls
				}
				return errBadRequest
			default:
				return &retry.StatusError{Code: 503, After: pushback}
			}
		})
		limit := p.MaxAttempts
		if limit <= 0 {
			limit = 3
		}
		if calls > limit {
			t.Fatalf("%d attempts; limit %d", calls, limit)
		}
		if firstPermanent > 0 {
			if calls != firstPermanent {
				t.Fatalf("retried after a non-retryable error (attempt %d of %d)", firstPermanent, calls)
			}
			if err != errBadRequest {
				t.Fatalf("a non-retryable error must come back as is, got %v", err)
			}
		}
	})
}

var errBadRequest = errors.New("bad request")

// p0 returns the effective cap for a fuzzed cap in ms (0 means 10 s).
func p0(capMs uint16) time.Duration {
	if capMs == 0 {
		return 10 * time.Second
	}
	return time.Duration(capMs) * time.Millisecond
}
