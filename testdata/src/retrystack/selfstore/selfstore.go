// Package selfstore stores an exported client field from the same field
// of another value (a config merge): following the stores of the field
// back to the field itself must end, not recurse.
package selfstore

import (
	"net/http"
	"time"
)

type Config struct {
	HTTPClient *http.Client
}

// Merge copies b's client over a's, as config libraries merge layers.
func (a *Config) Merge(b *Config) {
	if b.HTTPClient != nil {
		a.HTTPClient = b.HTTPClient
	}
}

// Fetch retries a GET through the configured client: it does not
// retry, so no layer stacks.
func (a *Config) Fetch(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = a.HTTPClient.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
