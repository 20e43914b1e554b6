// Package fiximports checks that fixes add imports to a single import.
package fiximports

import "net/http"

func get(u string) {
	c := &http.Client{}
	c.Get(u) // want `http.Client.Get has no timeout`
}
