// Command runtimehedge hedges a read with the runtime's hedge.Do: the
// function declared idempotent runs in copies, under the request's
// context that hedge.Do is given.
package main

import (
	"context"
	"net/http"

	"github.com/resilvet/resilvet/runtime/hedge"
)

func items(w http.ResponseWriter, r *http.Request) {
	_, _ = hedge.Do(r.Context(), &hedge.Policy{}, hedge.Idempotent(func(ctx context.Context) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://items/", nil)
		if err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return 1, nil
	}))
}

func main() {
	http.HandleFunc("GET /items", items)
	_ = http.ListenAndServe(":8080", nil)
}
