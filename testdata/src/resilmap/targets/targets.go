// Package main is a service for the targets the resilience map names: a
// URL only where the code says it, and an SQL statement only for an SQL
// call, read from the argument that holds it.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

type hook struct {
	client *http.Client
	url    string
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, _ := sql.Open("driver", os.Getenv("DSN"))
	h := &hook{client: &http.Client{Timeout: 5 * time.Second}, url: os.Getenv("HOOK_URL")}
	deliver(ctx, db, h)
	deliver(ctx, db, newHook(os.Getenv("HOOK_URL"), 0))
}

// newHook sets the Timeout of a client made elsewhere: the calls through
// it are bounded by that Timeout.
func newHook(url string, timeout time.Duration) *hook {
	c := clientFromConfig()
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	c.Timeout = timeout
	return &hook{client: c, url: url}
}

func clientFromConfig() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

func deliver(ctx context.Context, db *sql.DB, h *hook) {
	// The URL is configuration; the content type is no target.
	_, _ = h.client.Post(h.url, "application/json", strings.NewReader("{}"))
	_, _ = h.client.Post("http://hooks/events", "application/json", strings.NewReader("{}"))
	_, _ = http.Post("http://audit/log", "text/plain", nil)
	_, _ = db.ExecContext(ctx, "INSERT INTO events (kind) VALUES (?)", "created")
	// The statement is the first string: the argument that spells a
	// write is data.
	_, _ = db.QueryContext(ctx, "SELECT id FROM events WHERE kind = ?", "INSERT")
	built(ctx, h)
}

// built sends requests whose URLs are built from configuration and
// constants: the map shows the constants and marks the rest.
func built(ctx context.Context, h *hook) {
	q := url.Values{"id": {"1"}}
	u, _ := url.JoinPath(h.url, "/v3/", "/feeds")
	r1, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.url+"/v1/items", nil)
	_, _ = h.client.Do(r1)
	r2, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.url+"?"+q.Encode(), nil)
	_, _ = h.client.Do(r2)
	r3, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("https://%s/api/%d/status", h.url, 2), nil)
	_, _ = h.client.Do(r3)
	r4, _ := http.NewRequestWithContext(ctx, http.MethodGet, (&url.URL{Scheme: "https", Host: h.url, Path: "/v2/things"}).String(), nil)
	_, _ = h.client.Do(r4)
	r5, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	_, _ = h.client.Do(r5)
	lookup(ctx)
	lookupAlone(context.Background())
}

// lookup's DNS lookup is bounded by its caller's deadline.
func lookup(ctx context.Context) {
	_, _ = net.DefaultResolver.LookupIPAddr(ctx, "db.internal")
}

// lookupAlone's caller has no deadline, but a lookup has the resolver's
// own timeouts: its bound is unknown, not none.
func lookupAlone(ctx context.Context) {
	_, _ = net.DefaultResolver.LookupHost(ctx, "cache.internal")
}
