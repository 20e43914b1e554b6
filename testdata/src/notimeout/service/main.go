// Command service starts a server: its main package is a service.
package main

import "net/http"

func refresh() {
	http.Get("http://example.com") // want `http.Get uses http.DefaultClient`
}

func main() {
	go refresh()
	http.ListenAndServe(":8080", nil)
}

// In package main no other package can set an exported field.
type poller struct {
	Client *http.Client
}

func newPoller() *poller { return &poller{Client: &http.Client{}} }

func (p *poller) poll(u string) {
	p.Client.Get(u) // want `http.Client.Get has no timeout`
}
