// Package gin is a stub of the web framework: its *Context is a
// context.Context.
package gin

import (
	"net/http"
	"time"
)

type Context struct {
	Request *http.Request
}

func (c *Context) Deadline() (time.Time, bool) { return c.Request.Context().Deadline() }
func (c *Context) Done() <-chan struct{}       { return c.Request.Context().Done() }
func (c *Context) Err() error                  { return c.Request.Context().Err() }
func (c *Context) Value(key any) any           { return c.Request.Context().Value(key) }
