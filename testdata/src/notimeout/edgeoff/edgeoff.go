// Package edgeoff is edge checked without edge mode: nothing to report.
package edgeoff

import (
	"context"
	"net/http"
	"time"
)

func handle(w http.ResponseWriter, r *http.Request) {
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
	mux.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), "GET", "http://backend", nil)
		http.DefaultClient.Do(req)
	})
}
