// Package fix gets idempotency keys set on requests it hedges and
// retries; it already uses the runtime.
package fix

import (
	"context"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
	"github.com/resilvet/resilvet/runtime/hedge"
)

var _ hedge.Transport

func Hedged(ctx context.Context, url string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = hc.Do(req) // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do, which sends a POST request`
	return err
}

func Retried(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if _, err = http.DefaultClient.Do(req); err == nil { // want `retry loop \(3 attempts\) retries http.Client.Do, which sends a POST request`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// BuiltInside builds the request in each attempt: a key set there would
// differ in every attempt, so there is no fix.
func BuiltInside(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if _, err = http.DefaultClient.Do(req); err == nil { // want `retry loop \(3 attempts\) retries http.Client.Do, which sends a POST request`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
