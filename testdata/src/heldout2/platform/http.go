package platform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"example.com/kv"
)

// NewTransport is the transport every outbound client uses: bounded
// connect, TLS handshake and time to first response byte.
// heldout: clean — transport with dial, TLS and response-header timeouts
func NewTransport() *http.Transport {
	dialer := &net.Dialer{Timeout: 3 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
	}
}

// NewHTTPClient returns a client with an overall timeout on top of the
// transport's per-phase ones.
// heldout: clean — client always gets a positive Timeout
func NewHTTPClient(timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &http.Client{Timeout: timeout, Transport: NewTransport()}
}

// GetJSON GETs url with c and decodes the JSON body into out.
// heldout: clean — the request carries the caller's ctx, the client is the caller's
func GetJSON(ctx context.Context, c *http.Client, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// PostJSON posts body to url as JSON. Used for fire-and-forget
// notifications to internal tools (Slack bridge, support intake).
// heldout: notimeout — http.Post goes through http.DefaultClient, which has no Timeout; no context in scope
func PostJSON(url string, body any) error {
	buf, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(buf))
	if err != nil {
		return fmt.Errorf("post %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("post %s: %s", url, resp.Status)
	}
	return nil
}

// Deadline bounds every request handled by next with d.
// heldout: clean — derives from r.Context()
func Deadline(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// Auth checks the bearer token of every request against the identity
// service's introspection endpoint.
// heldout: ctxdrop — introspection uses c.Get (no context) inside the handler, where r.Context() is available
func Auth(introspectURL string, c *http.Client, log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			tok := r.Header.Get("Authorization")
			if len(tok) < 8 || tok[:7] != "Bearer " {
				http.Error(w, "missing bearer token", http.StatusUnauthorized)
				return
			}
			resp, err := c.Get(introspectURL + "?token=" + url.QueryEscape(tok[7:]))
			if err != nil {
				log.Warn("token introspection failed", "err", err)
				http.Error(w, "auth unavailable", http.StatusServiceUnavailable)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				http.Error(w, "invalid token", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// RateLimit allows perMinute requests per API key, counted in the shared
// KV store so every replica sees the same budget.
// heldout: ctxdrop — the limiter's KV round trips get context.Background() while r.Context() is in scope
func RateLimit(store *kv.Client, perMinute int, log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			window := time.Now().Unix() / 60
			key := "rl:" + r.Header.Get("X-Api-Key") + ":" + strconv.FormatInt(window, 10)
			v, err := store.GetContext(context.Background(), key)
			if err != nil {
				// Fail open: a KV hiccup must not take the API down.
				log.Warn("rate limiter read failed", "err", err)
				next.ServeHTTP(w, r)
				return
			}
			n, _ := strconv.Atoi(v)
			if n >= perMinute {
				w.Header().Set("Retry-After", "60")
				http.Error(w, "rate limit exceeded", http.StatusTooManyRequests)
				return
			}
			if err := store.PutWithContext(context.Background(), key, strconv.Itoa(n+1)); err != nil {
				log.Warn("rate limiter write failed", "err", err)
			}
			next.ServeHTTP(w, r)
		})
	}
}
