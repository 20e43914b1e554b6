package nestfix

import (
	"context"
	"log"
)

// logged logs between attempts, the file's only use of package log: the
// import would be left unused, so no fix.
func (c *Client) logged(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.get(ctx); err == nil {
			break
		}
		log.Print(err)
		c.pause(ctx)
	}
	return err
}

// Logged wraps logged.
func (c *Client) Logged(ctx context.Context) error {
	var err error
	for range 2 {
		if err = c.logged(ctx); err == nil { // want `retry loop \(2 attempts\) wraps nestfix.Client.logged, which retries 3×`
			break
		}
		c.pause(ctx)
	}
	return err
}
