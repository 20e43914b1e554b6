package nestfix

import (
	"context"
	"time"
)

// numbered reads its loop's variable in the attempt: no fix.
func (c *Client) numbered(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = c.getNumbered(ctx, i)
		if err == nil {
			break
		}
		c.pause(ctx)
	}
	return err
}

func (c *Client) getNumbered(ctx context.Context, attempt int) error {
	_ = attempt
	return c.get(ctx)
}

func (c *Client) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Numbered wraps numbered.
func (c *Client) Numbered(ctx context.Context) error {
	var err error
	for range 2 {
		if err = c.numbered(ctx); err == nil { // want `retry loop \(2 attempts\) wraps nestfix.Client.numbered, which retries 3×`
			break
		}
		c.pause(ctx)
	}
	return err
}

// delayed keeps its delay in a variable only the loop reads: the
// variable would be left unused, so no fix.
func (c *Client) delayed(ctx context.Context) error {
	delay := time.Second
	var err error
	for i := 0; i < 3; i++ {
		if err = c.get(ctx); err == nil {
			break
		}
		c.pauseFor(ctx, delay)
		delay *= 2
	}
	return err
}

func (c *Client) pauseFor(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// Delayed wraps delayed.
func (c *Client) Delayed(ctx context.Context) error {
	var err error
	for range 2 {
		if err = c.delayed(ctx); err == nil { // want `retry loop \(2 attempts\) wraps nestfix.Client.delayed, which retries 3×`
			break
		}
		c.pause(ctx)
	}
	return err
}
