package httpx

import (
	"context"
	"log"
	"math/rand"
	"time"
)

// Retry calls fn up to attempts times with jittered exponential backoff,
// giving up when ctx is done.
//
// heldout: clean — retries fn with the caller's ctx and stops when it is done; no outbound call of its own
func Retry(ctx context.Context, attempts int, fn func(ctx context.Context) error) error {
	var err error
	backoff := 100 * time.Millisecond
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		sleep := time.Duration(rand.Int63n(int64(backoff)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
		backoff *= 2
	}
	return err
}

// RetryForever retries fn until it succeeds, logging each failure. Used for
// start-up dependencies we cannot run without.
//
// heldout: clean — calls a func value; the work belongs to the caller's closure
func RetryForever(name string, fn func() error) {
	backoff := time.Second
	for {
		err := fn()
		if err == nil {
			return
		}
		log.Printf("%s: %v (retrying in %s)", name, err, backoff)
		time.Sleep(backoff)
		if backoff < 30*time.Second {
			backoff *= 2
		}
	}
}
