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
