// Package clients builds hedging HTTP clients for other packages.
package clients

import (
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
)

// Hedged returns a client that sends up to 3 copies of each request.
func Hedged() *http.Client {
	c, err := hedgedhttp.NewClient(20*time.Millisecond, 3, &http.Client{Timeout: time.Second})
	if err != nil {
		panic(err)
	}
	return c
}

// Shared holds a hedging client for every package.
var Shared = Hedged()

// API holds a hedging client in a field.
type API struct {
	HC *http.Client
}

// NewAPI builds an API with a hedging client.
func NewAPI() *API {
	return &API{HC: Hedged()}
}
