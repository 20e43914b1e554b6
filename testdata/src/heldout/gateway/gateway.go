// Package gateway is the public edge: it authenticates requests, serves
// feature flags and proxies the rest to the upstream API.
package gateway

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"heldout/internal/httpx"
)

type Config struct {
	Upstream    string
	UserinfoURL string
}

type Gateway struct {
	upstream    *url.URL
	userinfoURL string
	hc          *http.Client
	verifier    *Verifier
	flags       *FlagStore
}

// heldout: clean — builds a client on httpx's transport (dial and header timeouts); no call
func New(cfg Config, v *Verifier, flags *FlagStore) (*Gateway, error) {
	u, err := url.Parse(cfg.Upstream)
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	return &Gateway{
		upstream:    u,
		userinfoURL: cfg.UserinfoURL,
		hc:          &http.Client{Transport: httpx.NewTransport()},
		verifier:    v,
		flags:       flags,
	}, nil
}

// heldout: clean — route table wrapped in the 10s timeout middleware
func (g *Gateway) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", g.health)
	mux.HandleFunc("GET /flags", g.serveFlags)
	mux.HandleFunc("GET /me", g.userinfo)
	mux.HandleFunc("GET /backends/{host}", g.backends)
	mux.HandleFunc("POST /logout", g.logout)
	mux.HandleFunc("GET /healthz/tcp", g.tcpCheck)
	mux.HandleFunc("/static/", g.proxyStatic)
	mux.HandleFunc("/", g.proxy)
	return httpx.TimeoutMiddleware(10*time.Second, mux)
}

// heldout: clean — verification and the upstream request both carry r.Context()
func (g *Gateway) proxy(w http.ResponseWriter, r *http.Request) {
	claims, err := g.verifier.Verify(r.Context(), bearer(r))
	if err != nil {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	target := g.upstream.ResolveReference(&url.URL{Path: r.URL.Path, RawQuery: r.URL.RawQuery})
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target.String(), r.Body)
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	out.Header = r.Header.Clone()
	out.Header.Set("X-User", claims.Subject)
	resp, err := g.hc.Do(out)
	if err != nil {
		log.Printf("proxy %s: %v", r.URL.Path, err)
		http.Error(w, "upstream unavailable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// proxyStatic serves assets from the upstream without authentication.
//
// heldout: ctxdrop — sends a clone of the request made with context.Background(): the client's cancellation and the middleware deadline are dropped
func (g *Gateway) proxyStatic(w http.ResponseWriter, r *http.Request) {
	out := r.Clone(context.Background())
	out.RequestURI = ""
	out.URL.Scheme = g.upstream.Scheme
	out.URL.Host = g.upstream.Host
	out.Host = g.upstream.Host
	resp, err := g.hc.Do(out)
	if err != nil {
		http.Error(w, "upstream unavailable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.Header().Set("Cache-Control", resp.Header.Get("Cache-Control"))
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// heldout: ctxdrop — http.Get ignores r.Context() and runs on http.DefaultClient, which has no Timeout (first labelled "ctxdrop notimeout"; corrected after the first scoring: the analyzers hand each call to one of them, and ctxdrop's fix, the request's context under the 10s middleware, bounds it)
func (g *Gateway) health(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get(g.upstream.String() + "/healthz")
	if err != nil {
		http.Error(w, "upstream down", http.StatusServiceUnavailable)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		http.Error(w, "upstream unhealthy", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}

// heldout: clean — in-memory flag snapshot
func (g *Gateway) serveFlags(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, g.flags.Snapshot())
}

// heldout: ctxdrop — a fresh 3s root from httpx.Detached inside a handler replaces r.Context() (its deadline and cancellation)
func (g *Gateway) userinfo(w http.ResponseWriter, r *http.Request) {
	claims, err := g.verifier.Verify(r.Context(), bearer(r))
	if err != nil {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	ctx, cancel := httpx.Detached(3 * time.Second)
	defer cancel()
	var info map[string]any
	if err := httpx.GetJSON(ctx, g.hc, g.userinfoURL+"?sub="+url.QueryEscape(claims.Subject), &info); err != nil {
		log.Printf("userinfo %s: %v", claims.Subject, err)
		http.Error(w, "userinfo unavailable", http.StatusBadGateway)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, info)
}

// heldout: ctxdrop — verifies the token with context.Background() while r.Context() is in scope (Verify may fetch keys or introspect)
func (g *Gateway) logout(w http.ResponseWriter, r *http.Request) {
	claims, err := g.verifier.Verify(context.Background(), bearer(r))
	if err != nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	revoke := g.upstream.ResolveReference(&url.URL{Path: "/internal/sessions/revoke"})
	if err := httpx.PostJSON(r.Context(), g.hc, revoke.String(), map[string]string{"sub": claims.Subject}, nil); err != nil {
		log.Printf("logout %s: %v", claims.Subject, err)
	}
	http.SetCookie(w, &http.Cookie{Name: "session", Value: "", MaxAge: -1, Path: "/"})
	w.WriteHeader(http.StatusNoContent)
}

// heldout: ctxdrop — net.DialTimeout in a handler: bounded at 2s, but the request's deadline and cancellation are ignored (Dialer.DialContext exists)
func (g *Gateway) tcpCheck(w http.ResponseWriter, r *http.Request) {
	conn, err := net.DialTimeout("tcp", g.upstream.Host, 2*time.Second)
	if err != nil {
		http.Error(w, "upstream port closed", http.StatusServiceUnavailable)
		return
	}
	conn.Close()
	w.Write([]byte("ok"))
}

// heldout: clean — passes r.Context() on
func (g *Gateway) backends(w http.ResponseWriter, r *http.Request) {
	addrs, err := g.resolveBackends(r.Context(), r.PathValue("host"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, addrs)
}

// heldout: ctxdrop — net.LookupHost while ctx is in scope (DefaultResolver.LookupHost(ctx, …) exists)
func (g *Gateway) resolveBackends(ctx context.Context, host string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	addrs, err := net.LookupHost(host)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	return addrs, nil
}

// heldout: clean — header parsing
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if !strings.HasPrefix(h, "Bearer ") {
		return ""
	}
	return strings.TrimPrefix(h, "Bearer ")
}

// ProbeLoop logs upstream availability once a minute for the dashboard.
//
// heldout: clean — request has no ctx, but g.hc's transport has dial and response-header timeouts
func (g *Gateway) ProbeLoop(stop <-chan struct{}) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		req, err := http.NewRequest(http.MethodHead, g.upstream.String()+"/healthz", nil)
		if err != nil {
			log.Printf("probe: %v", err)
			continue
		}
		start := time.Now()
		resp, err := g.hc.Do(req)
		if err != nil {
			log.Printf("probe: upstream unreachable: %v", err)
			continue
		}
		resp.Body.Close()
		log.Printf("probe: upstream %s in %s", resp.Status, time.Since(start))
	}
}
