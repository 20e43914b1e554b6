// Package cdn purges cached objects from the CDN.
package cdn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Purger invalidates paths at the edge.
type Purger interface {
	Purge(ctx context.Context, paths []string) error
}

// HTTPPurger talks to the CDN's purge API.
type HTTPPurger struct {
	base  string
	token string
	hc    *http.Client
}

// NewHTTPPurger returns a purger with a bounded client.
// heldout: clean — constructor; the client has a Timeout
func NewHTTPPurger(base, token string) *HTTPPurger {
	return &HTTPPurger{base: base, token: token, hc: &http.Client{Timeout: 10 * time.Second}}
}

// Purge invalidates paths.
// heldout: clean — request carries the caller's context and the client has a Timeout
func (p *HTTPPurger) Purge(ctx context.Context, paths []string) error {
	body, _ := json.Marshal(map[string][]string{"paths": paths})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/v2/purge", strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("purge: %s", resp.Status)
	}
	return nil
}

// PurgeAll invalidates the whole zone.
// heldout: clean — http.NewRequest's result is given ctx with WithContext before it is sent
func (p *HTTPPurger) PurgeAll(ctx context.Context) error {
	req, err := http.NewRequest(http.MethodPost, p.base+"/v2/purge_all", nil)
	if err != nil {
		return err
	}
	req = req.WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Status returns the CDN's status line.
// heldout: ctxdrop — p.hc.Get while ctx is in scope: the request cannot carry the caller's context
func (p *HTTPPurger) Status(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	resp, err := p.hc.Get(p.base + "/v2/status")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return string(b), err
}

// LegacyPurger speaks the old single-URL purge protocol.
type LegacyPurger struct {
	endpoint string
	hc       *http.Client
}

// NewLegacyPurger returns a purger for the old edge.
// heldout: clean — constructor, no I/O
func NewLegacyPurger(endpoint string) *LegacyPurger {
	return &LegacyPurger{endpoint: endpoint, hc: &http.Client{}}
}

// PurgeURL purges one URL.
// heldout: notimeout — hc.Post on a client built without Timeout; nothing bounds the call
func (p *LegacyPurger) PurgeURL(u string) error {
	resp, err := p.hc.Post(p.endpoint, "text/plain", strings.NewReader(u))
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// NewOriginClient returns the client used to read from the origin bucket.
// heldout: clean — builds a client, makes no call
func NewOriginClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport}
}

// BatchPurge purges paths in chunks, each with its own bound.
// heldout: clean — each chunk's context is derived from ctx inside the loop
func BatchPurge(ctx context.Context, p Purger, paths []string, size int) error {
	for len(paths) > 0 {
		n := size
		if n > len(paths) {
			n = len(paths)
		}
		bctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := p.Purge(bctx, paths[:n])
		cancel()
		if err != nil {
			return err
		}
		paths = paths[n:]
	}
	return nil
}

// Preheat requests each path once so the edge caches it before a premiere.
// heldout: notimeout — http.Head uses http.DefaultClient, which has no Timeout; no context is in scope
func (p *HTTPPurger) Preheat(paths []string) int {
	ok := 0
	for _, u := range paths {
		resp, err := http.Head(p.base + u)
		if err != nil {
			continue
		}
		resp.Body.Close()
		ok++
	}
	return ok
}
