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

// HedgedTransport returns a round tripper sending up to 3 copies.
func HedgedTransport(next http.RoundTripper) (http.RoundTripper, error) {
	return hedgedhttp.New(hedgedhttp.Config{Transport: next, Upto: 3, Delay: 10 * time.Millisecond})
}

// WithHedging makes the client it is given hedge.
func WithHedging(c *http.Client) (*http.Client, error) {
	var err error
	c.Transport, err = HedgedTransport(c.Transport)
	return c, err
}
