// Package transport bounds its client with transport timeouts only, which
// count as a bound only with -resilvet.transport-timeouts.
package transport

import (
	"net"
	"net/http"
	"time"
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
}
