// Package api holds the handlers, every one registered through the
// withLogging adapter.
package api

import (
	"log"
	"net/http"
	"time"

	"example.com/adapter/store"
)

type Handlers struct {
	Store  *store.Store
	Client *http.Client
}

// Routes registers the handlers, each wrapped by an adapter closure.
func (h *Handlers) Routes(mux *http.ServeMux) {
	mux.Handle("GET /items", withLogging(h.List))
	mux.Handle("GET /orders", withLogging(h.Orders))
	mux.HandleFunc("POST /sync", withLogging(func(w http.ResponseWriter, r *http.Request) {
		h.sync(w, r)
	}))
	mux.Handle("GET /stock", withTiming(http.HandlerFunc(h.Stock)))
	mux.Handle("GET /dyn", withLogging(pick(h)))
	mux.Handle("GET /legacy", legacy["/legacy"])
}

// legacy holds handlers by path: the map cannot tell which one runs.
var legacy = map[string]http.HandlerFunc{"/legacy": legacyStatus}

// legacyStatus's finding lies on no path the map can follow.
func legacyStatus(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://legacy/status")
	if err == nil {
		resp.Body.Close()
	}
}

// withLogging is the adapter: it returns a closure that calls the
// handler it is given.
func withLogging(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next(w, r)
		log.Printf("%s %s %v", r.Method, r.URL.Path, time.Since(start))
	}
}

// withTiming wraps an http.Handler, as middleware does.
func withTiming(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		log.Printf("%v", time.Since(start))
	})
}

// pick chooses a handler at run time: the map cannot say which.
func pick(h *Handlers) http.HandlerFunc {
	if time.Now().Unix()%2 == 0 {
		return h.List
	}
	return h.Orders
}

// List sends a request under the incoming request's context and reads
// the items through the dependency.
func (h *Handlers) List(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://pricing/prices", nil)
	if resp, err := h.Client.Do(req); err == nil {
		resp.Body.Close()
	}
	_ = h.Store.Items(r.Context())
}

// Orders reads the orders through the dependency, with no context.
func (h *Handlers) Orders(w http.ResponseWriter, r *http.Request) {
	_ = h.Store.Orders()
}

// Stock asks the stock service with the default client.
func (h *Handlers) Stock(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://stock/levels")
	if err == nil {
		resp.Body.Close()
	}
}

func (h *Handlers) sync(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "http://partner/sync", nil)
	if resp, err := h.Client.Do(req); err == nil {
		resp.Body.Close()
	}
}
