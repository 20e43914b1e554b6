package categories

import (
	"context"
	"errors"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/sony/gobreaker"
)

// Open retries through a breaker without looking at its rejection.
func (c *Client) Open(ctx context.Context, cb *gobreaker.CircuitBreaker) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = cb.Execute(func() (interface{}, error) { return nil, c.get(ctx) }) // want `retry loop retries a circuit breaker's call whatever it failed with, so it retries an open circuit, which rejects every attempt at once and is there to shed this load; leave the loop when the breaker says the circuit is open`
		if err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// OpenChecked leaves when the circuit is open.
func (c *Client) OpenChecked(ctx context.Context, cb *gobreaker.CircuitBreaker) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = cb.Execute(func() (interface{}, error) { return nil, c.get(ctx) })
		if err == nil || errors.Is(err, gobreaker.ErrOpenState) {
			return err
		}
		pause(ctx)
	}
	return err
}

// RuntimeOpen retries the runtime's breaker without looking at ErrOpen.
func (c *Client) RuntimeOpen(ctx context.Context, b *breaker.Breaker) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = b.Do(ctx, c.get); err == nil { // want `retries an open circuit`
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// Through a breaker, a loop still wraps the layers of what the breaker
// runs.
func Through(ctx context.Context, cb *gobreaker.CircuitBreaker, c *Client) error {
	var err error
	for i := 0; i < 2; i++ {
		_, err = cb.Execute(func() (interface{}, error) { return nil, c.Field(ctx) }) // want `retry loop \(2 attempts\) wraps categories.Client.Field, which retries 4×: up to 8 attempts per call` `retries an open circuit`
		if err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Field retries four times.
func (c *Client) Field(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = c.get(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}
