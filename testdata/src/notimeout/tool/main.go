// Command tool is a one-shot tool: its user can interrupt it, so
// notimeout stays silent unless -main asks.
package main

import "net/http"

func main() {
	http.Get("http://example.com")
}
