// Package main is a service whose handler sends a POST through a hedging
// client: the map's path carries the hedge and says the operation is not
// idempotent.
package main

import (
	"context"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
)

func main() {
	http.HandleFunc("POST /pay", pay)
}

func pay(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://payments/pay", nil)
	_, _ = hc.Do(req)
}
