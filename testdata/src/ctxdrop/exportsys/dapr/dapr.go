// Package dapr is an export driver that ignores the context it is given.
package dapr

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

type Dapr struct{ hc *http.Client }

func New() *Dapr { return &Dapr{hc: &http.Client{Timeout: 5 * time.Second}} }

func (d *Dapr) Publish(_ context.Context, topic string, msg []byte) error {
	req, err := http.NewRequestWithContext(context.Background(), "POST", "http://localhost:3500/"+topic, bytes.NewReader(msg))
	if err != nil {
		return err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
