// Package e2ehelpers holds end-to-end test helpers outside _test.go files,
// in a package whose name says nothing about tests (as Jaeger's
// cmd/jaeger/internal/integration): a helper that takes a *testing.T, a
// testing.TB or a *testing.B is test code by its signature.
package e2ehelpers

import (
	"context"
	"net/http"
	"testing"
)

// ScrapeMetrics is called from tests only: not reported.
func ScrapeMetrics(t *testing.T, url string) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// Poll takes a testing.TB, and its subtest closure is test code too.
func Poll(tb testing.TB, url string) {
	func() { http.Get(url) }()
}

// Subtests run as closures taking a *testing.T: not reported.
func Table(url string) {
	var t testing.T
	t.Run("get", func(t *testing.T) { http.Get(url) })
}

// Fetch takes no testing parameter: the package's production path.
func Fetch(url string) {
	http.Get(url) // want `http.Get uses http.DefaultClient, which has no timeout`
}

// Bench is a benchmark helper.
func Bench(b *testing.B, url string) {
	for range b.N {
		http.Get(url)
	}
}
