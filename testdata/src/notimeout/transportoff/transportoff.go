// Package transportoff is checked with -resilvet.transport-timeouts=false:
// transport timeouts do not bound a client.
package transportoff

import (
	"net"
	"net/http"
	"time"

	"notimeout/transportlib"
)

func newClient() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{
		DialContext:           dialer.DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
	}}
}

func get(u string) {
	c := &http.Client{Transport: &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
	}}
	c.Get(u)           // want `http.Client.Get has no timeout`
	newClient().Get(u) // want `http.Client.Get has no timeout`

	helped := &http.Client{Transport: transportlib.NewDeadline(time.Second, 5*time.Second)}
	helped.Get(u) // want `http.Client.Get has no timeout`
}
