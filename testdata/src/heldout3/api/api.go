// Package api serves the upload and asset management API.
package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"strconv"
	"strings"
	"time"

	"heldout3/cdn"
	"heldout3/drm"
	"heldout3/store"
	"heldout3/thumbs"
	"heldout3/transcode"
)

// Server holds the API's dependencies.
type Server struct {
	store  *store.Store
	purger cdn.Purger
	legacy *cdn.LegacyPurger
	drm    *drm.Client
	thumbs *thumbs.Cache
	runner *transcode.Runner
}

// NewServer wires the API.
// heldout: clean — constructor
func NewServer(st *store.Store, p cdn.Purger, lp *cdn.LegacyPurger, dc *drm.Client, th *thumbs.Cache, rn *transcode.Runner) *Server {
	return &Server{store: st, purger: p, legacy: lp, drm: dc, thumbs: th, runner: rn}
}

type ctxKey struct{}

// WithTimeout bounds every request's context.
// heldout: clean — middleware derives the deadline from r.Context()
func WithTimeout(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// RequestID tags each request with an ID.
// heldout: clean — context.WithValue on the request's own context
func RequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [8]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, id)))
	})
}

// Routes returns the API's handler.
// heldout: clean — routing only
func (s *Server) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /assets", s.handleUpload)
	mux.HandleFunc("GET /assets/{id}", s.handleGetAsset)
	mux.HandleFunc("DELETE /assets/{id}", s.handleDelete)
	mux.HandleFunc("POST /assets/{id}/tags", s.handleBulkTag)
	mux.HandleFunc("POST /assets/{id}/retranscode", s.handleRetranscode)
	mux.HandleFunc("POST /purge", s.handlePurge)
	mux.HandleFunc("POST /purge/legacy", s.handleLegacyPurge)
	mux.HandleFunc("POST /import", s.handleImport)
	mux.HandleFunc("POST /license", s.handleLicense)
	mux.HandleFunc("POST /takedown/{id}", s.handleTakedown)
	mux.HandleFunc("GET /thumbs/{id}", s.handleThumbs)
	mux.HandleFunc("GET /placeholder", s.handlePlaceholder)
	mux.HandleFunc("GET /healthz", s.handleHealth)
	return RequestID(WithTimeout(10 * time.Second)(mux))
}

// writeJSON writes v as JSON.
// heldout: clean — no outbound work
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// handleUpload stores a new asset and queues it for transcoding.
// heldout: clean — r.Context() reaches the insert; Submit is an in-process channel send
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<30))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id := strconv.FormatInt(time.Now().UnixNano(), 36)
	a := store.Asset{ID: id, Title: r.FormValue("title"), Status: "pending"}
	if err := s.store.CreateAsset(r.Context(), a); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = body
	if !s.runner.Submit(transcode.Job{AssetID: id, Source: "/var/spool/upload/" + id, Profiles: []string{"720p", "1080p"}}) {
		http.Error(w, "queue full", http.StatusServiceUnavailable)
		return
	}
	writeJSON(w, http.StatusAccepted, a)
}

// handleGetAsset returns one asset.
// heldout: ctxdrop — context.TODO() passed to GetAsset while r.Context() is available
func (s *Server) handleGetAsset(w http.ResponseWriter, r *http.Request) {
	a, err := s.store.GetAsset(context.TODO(), r.PathValue("id"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// handleDelete deletes an asset and purges it from the CDN in the background.
// heldout: clean — the background purge is a goroutine not waited for, with its own 30 s bound and an explanation
func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.store.DeleteAsset(r.Context(), id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	paths := []string{"/v/" + id + "/*", "/thumbs/" + id}
	go func() {
		// The purge must finish even after the client has gone, so it runs on a
		// fresh context with a bound of its own rather than on the request's.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.purger.Purge(ctx, paths); err != nil {
			log.Printf("purge %s: %v", id, err)
		}
	}()
	w.WriteHeader(http.StatusNoContent)
}

// handleBulkTag replaces tags on several assets.
// heldout: ctxdrop — the closure captures r but passes context.Background() to ReplaceTags
func (s *Server) handleBulkTag(w http.ResponseWriter, r *http.Request) {
	var req struct {
		IDs  []string `json:"ids"`
		Tags []string `json:"tags"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	apply := func(id string) error {
		log.Printf("%s: tagging %s", r.URL.Path, id)
		return s.store.ReplaceTags(context.Background(), id, req.Tags)
	}
	for _, id := range req.IDs {
		if err := apply(id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleRetranscode saves a manual rendition list for an asset.
// heldout: ctxdrop — transcode.JobContext returns a fresh root (bounded) that reaches SaveRenditions in a handler, losing the request's deadline
func (s *Server) handleRetranscode(w http.ResponseWriter, r *http.Request) {
	var rs []store.Rendition
	if err := json.NewDecoder(r.Body).Decode(&rs); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := transcode.JobContext(time.Minute)
	defer cancel()
	if err := s.store.SaveRenditions(ctx, r.PathValue("id"), rs); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handlePurge purges the posted paths.
// heldout: ctxdrop — context.Background() passed to cdn.Purger.Purge while r.Context() is available
func (s *Server) handlePurge(w http.ResponseWriter, r *http.Request) {
	var paths []string
	if err := json.NewDecoder(r.Body).Decode(&paths); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.purger.Purge(context.Background(), paths); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleLegacyPurge purges one URL on the old edge.
// heldout: ctxdrop — LegacyPurger.PurgeURL takes no context and posts on a client without Timeout; r.Context() is dropped
func (s *Server) handleLegacyPurge(w http.ResponseWriter, r *http.Request) {
	u := r.FormValue("url")
	if !strings.HasPrefix(u, "https://") {
		http.Error(w, "bad url", http.StatusBadRequest)
		return
	}
	if err := s.legacy.PurgeURL(u); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleImport fetches a source file from a partner URL.
// heldout: ctxdrop — http.Get while r.Context() is in scope
func (s *Server) handleImport(w http.ResponseWriter, r *http.Request) {
	src := r.FormValue("src")
	resp, err := http.Get(src)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<30))
	writeJSON(w, http.StatusOK, map[string]int64{"bytes": n})
}

// handleLicense checks entitlement and issues a license within 3 s.
// heldout: clean — the deadline is derived from r.Context()
func (s *Server) handleLicense(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	user, content := r.FormValue("user"), r.FormValue("content")
	ok, err := s.drm.CheckEntitlement(ctx, user, content)
	if err != nil || !ok {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	lic, err := s.drm.IssueLicense(ctx, &drm.LicenseRequest{ContentID: content, UserID: user})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Write(lic.Blob)
}

// handleTakedown revokes every license of a title.
// heldout: ctxdrop — drm.Client.RevokeAll makes its own context.Background() for the RPC; r.Context() is dropped
func (s *Server) handleTakedown(w http.ResponseWriter, r *http.Request) {
	if err := s.drm.RevokeAll(r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleThumbs returns all thumbnail sizes of an asset.
// heldout: ctxdrop — per-size context made from context.Background() inside the loop of a handler: bounded, but the request's deadline is lost
func (s *Server) handleThumbs(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	out := make(map[string]int)
	for _, size := range []string{"160", "320", "640"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		b, err := s.thumbs.Fetch(ctx, id+"-"+size)
		cancel()
		if err != nil {
			continue
		}
		out[size] = len(b)
	}
	writeJSON(w, http.StatusOK, out)
}

// handlePlaceholder renders a placeholder frame.
// heldout: clean — Placeholder's own context reaches only in-process rendering
func (s *Server) handlePlaceholder(w http.ResponseWriter, r *http.Request) {
	wd, _ := strconv.Atoi(r.FormValue("w"))
	ht, _ := strconv.Atoi(r.FormValue("h"))
	if wd <= 0 || ht <= 0 || wd*ht > 1<<22 {
		http.Error(w, "bad size", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(s.thumbs.Placeholder(wd, ht))
}

// handleHealth reports database health.
// heldout: ctxdrop — store.Healthy makes its own 2 s context from Background; in a handler the request's deadline does not travel
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if !s.store.Healthy() {
		http.Error(w, "db down", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}
