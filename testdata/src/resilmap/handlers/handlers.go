// Package main registers handlers that functions of the package make: the
// map names the function each constructor returns; a handler it cannot
// name is an entry with no function, and the constructor's claim says
// why (the map lists it as not followed).
package main

import (
	"context"
	"net/http"

	"google.golang.org/grpc"
)

func main() { // want `entry main "main" resilmap/handlers.main`
	mux := http.NewServeMux()
	mux.Handle("/status", statusHandler())                // want `entry http "/status" resilmap/handlers.statusHandler\$1` `edge resilmap/handlers.statusHandler $`
	mux.Handle("/members", newMembers(false))             // want `entry http "/members" \(\*resilmap/handlers.members\).ServeHTTP` `edge resilmap/handlers.newMembers $`
	mux.Handle("/any", http.HandlerFunc(pick()))          // want `entry http "/any"  handler=call\(resilmap/handlers.pick\)` `edge resilmap/handlers.pick $`
	mux.Handle("/either", either(true))                   // want `entry http "/either"  handler=call\(resilmap/handlers.either\)` `edge resilmap/handlers.either $`
	mux.Handle(prefix, &members{})                        // want `entry http "main.members.ServeHTTP" \(\*resilmap/handlers.members\).ServeHTTP`
	RegisterPingServer(grpc.NewServer(), newPingServer()) // want `entry grpc "Ping/Ping" \(resilmap/handlers.pinger\).Ping` `edge resilmap/handlers.newPingServer $`
	http.ListenAndServe(":8080", mux)
}

// prefix is configuration: the entry is named by its handler.
var prefix = "/"

func statusHandler() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {}
}

type members struct{}

func (*members) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

// newMembers returns nil on its error path: the handler is still the
// members type's.
func newMembers(fail bool) http.Handler {
	if fail {
		return nil
	}
	return &members{}
}

// pick returns a handler the engine cannot name.
func pick() func(http.ResponseWriter, *http.Request) {
	return handlers[len(handlers)-1]
}

var handlers []func(http.ResponseWriter, *http.Request)

// either returns one of two handlers: not followed rather than a guess.
func either(b bool) http.Handler {
	if b {
		return statusHandler() // want `edge resilmap/handlers.statusHandler $`
	}
	return &members{}
}

// PingServer and RegisterPingServer are what protoc-gen-go-grpc generates
// for a service Ping; a constructor of the package makes the
// implementation.
type PingServer interface {
	Ping(context.Context, *PingRequest) (*PingReply, error)
}

type PingRequest struct{}
type PingReply struct{}

func RegisterPingServer(s grpc.ServiceRegistrar, srv PingServer) {}

type pinger struct{}

func (pinger) Ping(context.Context, *PingRequest) (*PingReply, error) { return &PingReply{}, nil }

func newPingServer() PingServer { return pinger{} }
