// Package keyfix retries a POST; its module does not require the
// runtime, so the key comes from crypto/rand.
package keyfix

import (
	"context"
	"net/http"
	"time"
)

func Notify(ctx context.Context, url string) error {
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

// NoCheck builds its request with no error check: the key goes right
// after it.
func NoCheck(ctx context.Context, url string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, url, nil)
	for i := 0; i < 2; i++ {
		if resp, err := http.DefaultClient.Do(req); err == nil { // want `retry loop \(2 attempts\) retries http.Client.Do, which sends a PATCH request`
			resp.Body.Close()
			return
		}
		time.Sleep(time.Second)
	}
}
