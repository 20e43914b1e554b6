// Package acmeuse retries ACME requests. Every ACME request is a POST,
// but the protocol's polls are reads (POST-as-GET), and answering a
// challenge or registering an existing key again changes nothing; a new
// order is a new order.
package acmeuse

import (
	"context"
	"time"

	"golang.org/x/crypto/acme"
)

func Verify(ctx context.Context, c *acme.Client, chal *acme.Challenge, authz string) error {
	for {
		if _, err := c.Register(ctx, &acme.Account{}, nil); err != nil {
			time.Sleep(time.Second)
			continue
		}
		if _, err := c.Accept(ctx, chal); err != nil {
			time.Sleep(time.Second)
			continue
		}
		if _, err := c.WaitAuthorization(ctx, authz); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
}

func Order(ctx context.Context, c *acme.Client) error {
	for i := 0; i < 3; i++ {
		if _, err := c.AuthorizeOrder(ctx, []string{"example.com"}); err == nil { // want `retry loop \(3 attempts\) retries acme.Client.AuthorizeOrder, which sends a POST request`
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}
