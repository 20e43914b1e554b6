// Command toolmain is tool, checked with -main.
package main

import "net/http"

func main() {
	http.Get("http://example.com") // want `http.Get uses http.DefaultClient`
}
