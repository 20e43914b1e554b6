// Package exportsys publishes through a registry of drivers, declared in
// another package, that all ignore their context; and fetches with one.
package exportsys

import (
	"context"
	"net/http"

	"ctxdrop/exportsys/dapr"
	"ctxdrop/exportsys/driver"
)

var drivers = map[string]driver.Driver{"dapr": dapr.New()}

// Publish hands its context only to drivers that ignore theirs.
func Publish(ctx context.Context, conn, topic string, msg []byte) error {
	return drivers[conn].Publish(ctx, topic, msg)
}

// Fetch sends a request with its context.
func Fetch(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
