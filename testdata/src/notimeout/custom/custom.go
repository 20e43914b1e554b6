// Package custom calls a client the user names with -resilvet.outbound.
package custom

import (
	"context"

	"example.com/kv"
)

func get(c *kv.Client) {
	c.GetContext(context.Background(), "k") // want `context.Background\(\) reaches kv.Client.GetContext with no deadline`
}
