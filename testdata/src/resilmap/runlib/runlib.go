// Package runlib is a command's body in a package of its own.
package runlib

import "net/http"

// Run fetches its configuration with no deadline.
func Run() {
	_, _ = http.Get("http://config/")
}

// Quiet does no outbound work: it has no summary.
func Quiet() {}

// handlers are run later, by whoever reads them.
var handlers []func()

func register(h func()) { handlers = append(handlers, h) }

// Serve registers a handler that fetches: nothing the summary follows
// reaches the fetch, the map's closure edge does.
func Serve() {
	register(func() {
		_, _ = http.Get("http://backend/")
	})
}
