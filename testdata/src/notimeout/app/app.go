// Package app uses lib: every claim reaches it through facts.
package app

import (
	"context"
	"net/http"

	"notimeout/lib"
)

func useBounded(c *lib.Client) {
	c.Fetch(context.Background(), "http://x")
}

func useBare(c *lib.Client) {
	c.FetchBare(context.Background(), "http://x") // want `context.Background\(\) reaches http.Client.Do \(via lib.Client.FetchBare -> http.Client.Do\) with no deadline`
}

func deep(c *lib.Client) {
	ctx := context.TODO() // want `context.TODO\(\) reaches sql.DB.QueryContext \(via lib.Client.Load -> lib.Client.load -> lib.query -> sql.DB.QueryContext\) with no deadline`
	c.Load(ctx, "1")
}

func boundedHelper(c *lib.Client) {
	c.Bounded(context.Background(), "1")
}

func withDeadline(c *lib.Client) {
	ctx, cancel := lib.WithDeadline(context.Background())
	defer cancel()
	c.Load(ctx, "1")
}

func helperRoot(c *lib.Client) {
	c.Load(lib.Background(), "1") // want `context.Background\(\) \(from lib.Background\) reaches sql.DB.QueryContext \(via lib.Client.Load -> lib.Client.load -> lib.query -> sql.DB.QueryContext\)`
}

func clients(u string) {
	lib.Send(lib.NewHTTPClient(), u)
	lib.Send(lib.NewBareClient(), u) // want `lib.Send has no timeout: a client without Timeout \(from lib.NewBareClient\) at lib.go:\d+:\d+ is unbounded \(via lib.Send -> http.Client.Get\)`
	lib.Send(&http.Client{}, u)      // handed to a function: it may set a timeout (silent)
	c := lib.NewHTTPClient()
	c.Get(u)
}

func param(ctx context.Context, c *lib.Client) {
	c.Load(ctx, "1")
}
