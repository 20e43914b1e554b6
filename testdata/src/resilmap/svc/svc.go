// Package main is a service for the resilience map's claims: entry points
// of every kind, and outbound calls bounded in each way the map names.
package main

import (
	"context"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

type server struct {
	client *http.Client
}

func main() { // want `entry main "main" resilmap/svc.main`
	s := &server{client: &http.Client{Timeout: 5 * time.Second}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /orders", s.orders)   // want `entry http "GET /orders" \(\*resilmap/svc.server\).orders`
	http.HandleFunc("/charge", s.charge)      // want `entry http "/charge" \(\*resilmap/svc.server\).charge`
	http.Handle("/health", health{})          // want `entry http "/health" \(resilmap/svc.health\).ServeHTTP`
	RegisterOrdersServer(grpc.NewServer(), s) // want `entry grpc "Orders/Get" \(\*resilmap/svc.server\).Get`
	go poll()                                 // want `edge resilmap/svc.poll $`
	go drain(context.Background())            // want `entry goroutine "main.drain" resilmap/svc.drain` `edge resilmap/svc.drain ctx=unbounded:context.Background\(\)`
	http.ListenAndServe(":8080", mux)
}

// orders passes the request's context down: the caller decides.
func (s *server) orders(w http.ResponseWriter, r *http.Request) {
	_ = fetch(r.Context(), s.client, "http://stock/") // want `edge resilmap/svc.fetch ctx=param\(\(\*resilmap/svc.server\).orders#1\) client=bounded:http.Client{Timeout}`
}

// charge sets a deadline of its own and retries through a closure.
func (s *server) charge(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	_ = retry(ctx, func(ctx context.Context) error { // want `edge \(\*resilmap/svc.server\).charge\$1 ctx=bounded:context.WithTimeout\(3s\)` `edge resilmap/svc.retry ctx=bounded:context.WithTimeout\(3s\)`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://payments/charge", nil)
		_, err := http.DefaultClient.Do(req) // want `call http http.Client.Do param\(\(\*resilmap/svc.server\).charge\$1#0\)`
		return err
	})
}

func fetch(ctx context.Context, c *http.Client, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	_, err := c.Do(req) // want `call http http.Client.Do param\(resilmap/svc.fetch#0\)`
	return err
}

func retry(ctx context.Context, op func(context.Context) error) error {
	for range 3 {
		if op(ctx) == nil {
			return nil
		}
	}
	return nil
}

type health struct{}

func (health) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

// poll runs on a ticker with no deadline: an unbounded call.
func poll() {
	for range time.Tick(time.Minute) { // want `entry periodic "main.poll" resilmap/svc.poll`
		_, _ = http.Get("http://config/") // want `call http http.Get unbounded:http.DefaultClient, which has no timeout`
	}
}

func drain(ctx context.Context) {}

// OrdersServer and RegisterOrdersServer are what protoc-gen-go-grpc
// generates for a service Orders.
type OrdersServer interface {
	Get(context.Context, *GetRequest) (*GetReply, error)
}

type GetRequest struct{}
type GetReply struct{}

func RegisterOrdersServer(s grpc.ServiceRegistrar, srv OrdersServer) {}

func (s *server) Get(ctx context.Context, req *GetRequest) (*GetReply, error) {
	return nil, fetch(ctx, s.client, "http://stock/") // want `edge resilmap/svc.fetch ctx=param\(\(\*resilmap/svc.server\).Get#0\) client=bounded:http.Client{Timeout}`
}

// dial is bounded by its own timeout.
func dial() {
	_, _ = net.DialTimeout("tcp", "cache:6379", time.Second) // want `call net net.DialTimeout bounded:net.DialTimeout's timeout argument`
}
