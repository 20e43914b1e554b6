// Command mockcb is a test helper program under test/: test code by its
// path, reported only with -resilvet.include-tests.
package main

import (
	"context"
	"net/http"
)

func callback(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://localhost:4444/oauth2/token", nil)
	http.DefaultClient.Do(req)
}

func main() {
	http.HandleFunc("/callback", callback)
	http.ListenAndServe(":4446", nil)
}
