// Package customoff is custom without the option: nothing to report.
package customoff

import (
	"context"

	"example.com/kv"
)

func get(c *kv.Client) {
	c.GetContext(context.Background(), "k")
}
