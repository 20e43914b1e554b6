// Package fixheader is checked with -hedgeidem.key-headers=X-Request-Key:
// the fix sets the configured header, with the runtime's key.
package fixheader

import (
	"context"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
)

var _ hedge.Transport

func Retried(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if _, err = http.DefaultClient.Do(req); err == nil { // want `retry loop \(3 attempts\) retries http.Client.Do, which sends a POST request without an X-Request-Key header`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
