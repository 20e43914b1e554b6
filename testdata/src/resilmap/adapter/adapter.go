// Package main registers every handler through an adapter closure: the
// map follows each registration into the handler the adapter was given.
package main

import (
	"context"
	"log"
	"net/http"
	"time"

	"resilmap/adaptermw"
	"resilmap/adapterstore"

	"github.com/robfig/cron/v3"
	"google.golang.org/grpc"
)

type handlers struct {
	store  *adapterstore.Store
	client *http.Client
}

var table = map[string]http.HandlerFunc{}

func main() {
	h := &handlers{client: &http.Client{}}
	mux := http.NewServeMux()
	mux.Handle("GET /items", withLogging(h.list))                                           // want `entry "GET /items" handler=call\(resilmap/adapter.withLogging\)\[0=func\(\(\*resilmap/adapter.handlers\).list\)\]`
	mux.HandleFunc("POST /sync", withLogging(func(w http.ResponseWriter, r *http.Request) { // want `entry "POST /sync" handler=call\(resilmap/adapter.withLogging\)\[0=func\(resilmap/adapter.main\$1\)\]`
		h.sync(w, r)
	}))
	mux.Handle("GET /slow", withLogging(adaptermw.Timeout(h.list)))                        // want `entry "GET /slow" handler=call\(resilmap/adapter.withLogging\)\[0=call\(resilmap/adaptermw.Timeout\)\[0=func\(\(\*resilmap/adapter.handlers\).list\)\]\]`
	mux.Handle("GET /wrapped", adaptermw.Wrap(http.HandlerFunc(h.list)))                   // want `entry "GET /wrapped" handler=call\(resilmap/adaptermw.Wrap\)\[0=func\(\(\*resilmap/adapter.handlers\).list\)\]`
	mux.Handle("GET /either", withLogging(pick(h)))                                        // want `entry "GET /either" handler=call\(resilmap/adapter.withLogging\)\[0=call\(resilmap/adapter.pick\)\]`
	mux.Handle("GET /table", table["x"])                                                   // want `entry "GET /table" handler=unknown\(is a func value read from a variable, a field or a table\)`
	mux.Handle("GET /std", http.TimeoutHandler(http.HandlerFunc(h.list), time.Second, "")) // want `entry "GET /std" handler=unknown\(is made by http.TimeoutHandler, outside the module, which the map does not follow\)`
	mux.Handle("GET /logged", &adaptermw.Logger{Next: http.HandlerFunc(h.list)})           // want `entry "GET /logged" handler=func\(\(\*resilmap/adaptermw.Logger\).ServeHTTP\)\[0=func\(\(\*resilmap/adapter.handlers\).list\)\]`
	mux.Handle("GET /twice", withLogging(withLogging(h.sync)))                             // want `entry "GET /twice" handler=call\(resilmap/adapter.withLogging\)\[0=call\(resilmap/adapter.withLogging\)\[0=func\(\(\*resilmap/adapter.handlers\).sync\)\]\]`
	h.route(mux, "GET /helper", h.list)
	RegisterPingServer(grpc.NewServer(), servers["ping"]) // want `entry "Ping/Ping" handler=unknown\(is a service implementation the engine cannot name\)`
	c := cron.New()
	c.AddFunc("@hourly", withRecover(h.sweep)) // want `entry "job scheduled by cron.Cron.AddFunc" handler=call\(resilmap/adapter.withRecover\)\[0=func\(\(\*resilmap/adapter.handlers\).sweep\)\]`
	c.AddFunc("@daily", jobs["compact"])       // want `entry "job scheduled by cron.Cron.AddFunc" handler=unknown\(is a func value read from a variable, a field or a table\)`
	http.ListenAndServe(":8080", mux)
}

var jobs = map[string]func(){}

// withRecover is a job's adapter.
func withRecover(job func()) func() { // want `returns func\(resilmap/adapter.withRecover\$1\)\[0=param#0\]`
	return func() {
		defer func() { recover() }()
		job() // want `runs captured#0 $`
	}
}

// sweep is a periodic job, behind withRecover.
func (h *handlers) sweep() {
	resp, err := h.client.Get("http://stock/sweep")
	if err == nil {
		resp.Body.Close()
	}
}

// PingServer and RegisterPingServer are what protoc-gen-go-grpc generates
// for a service Ping; the implementation registered is read from a table.
type PingServer interface {
	Ping(context.Context, *PingRequest) (*PingReply, error)
}

type PingRequest struct{}
type PingReply struct{}

func RegisterPingServer(s grpc.ServiceRegistrar, srv PingServer) {}

var servers = map[string]PingServer{}

// withLogging is the adapter: the closure it returns calls the handler it
// was given.
func withLogging(next http.HandlerFunc) http.HandlerFunc { // want `returns func\(resilmap/adapter.withLogging\$1\)\[0=param#0\]`
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next(w, r) // want `runs captured#0 request=param\(resilmap/adapter.withLogging\$1#1\)`
		log.Print(time.Since(start))
	}
}

// pick chooses a handler at run time: the map does not guess which.
func pick(h *handlers) http.HandlerFunc { // want `returns unknown\(is chosen at run time among several\)`
	if time.Now().Unix()%2 == 0 {
		return h.list
	}
	return h.sync
}

// route registers a handler its callers give: a registration helper.
func (h *handlers) route(mux *http.ServeMux, pattern string, f http.HandlerFunc) {
	mux.Handle(pattern, withLogging(f)) // want `entry "\(pattern not a constant\)" handler=call\(resilmap/adapter.withLogging\)\[0=param#2\]`
}

// list asks the pricing service under the request's context, and reads
// the items through the dependency.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://pricing/prices", nil)
	if resp, err := h.client.Do(req); err == nil {
		resp.Body.Close()
	}
	_ = h.store.Items(r.Context())
}

func (h *handlers) sync(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://partner/sync", nil)
	if resp, err := h.client.Do(req); err == nil {
		resp.Body.Close()
	}
}
