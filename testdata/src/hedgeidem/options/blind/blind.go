// Package blind is checked with -hedgeidem.retries=blind: only clients
// retrying every request whatever its method are reported, and hedges.
package blind

import (
	"context"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
	"github.com/hashicorp/go-retryablehttp"
)

func Webhook(url string) error {
	c := retryablehttp.NewClient()
	_, err := c.Post(url, "application/json", []byte("{}")) // want `retryablehttp.Client.Post \(5 attempts\) retries`
	return err
}

func Loop(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = http.Post(url, "application/json", nil); err == nil { // a hand-written layer: not in blind mode
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func Hedged(ctx context.Context, url string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	_, err := hc.Post(url, "application/json", nil) // want `hedgedhttp.NewClient \(3 copies\) hedges`
	return err
}
