// Package edge holds handlers for notimeout's edge mode.
package edge

import (
	"context"
	"net/http"
	"time"
)

func handle(w http.ResponseWriter, r *http.Request) { // want `handler edge.handle passes r.Context\(\), which has no deadline unless middleware sets one, to http.Client.Do`
	req, _ := http.NewRequestWithContext(r.Context(), "GET", "http://backend", nil)
	http.DefaultClient.Do(req)
}

func bounded(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://backend", nil)
	http.DefaultClient.Do(req)
}

func routes(mux *http.ServeMux) {
	mux.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { // want `handler edge.routes \(closure\) passes r.Context\(\)`
		req, _ := http.NewRequestWithContext(r.Context(), "GET", "http://backend", nil)
		http.DefaultClient.Do(req)
	})
}
