// Package notifyuse hands a fresh context to a registry that publishes on
// goroutines it leaves running: the request's context would be cancelled
// under them, so a fresh one is the right lifetime, not a dropped one.
package notifyuse

import (
	"context"
	"net/http"
	"time"

	"engine/retains"
)

type Server struct{ reg *retains.Registry }

func (s *Server) triggerEvent(bucket string) {
	s.reg.Trigger(context.Background(), bucket)
}

// ok: triggerEvent's root goes only to a callee that retains it.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	s.triggerEvent("photos")
}

// ok: the same, inline.
func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	s.reg.Trigger(context.Background(), "photos")
}

// A callee that waits for its goroutine does the caller's work.
func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	retains.RunWaiting(context.Background(), func(context.Context) error { return nil }) // want `context.Background\(\) passed to retains.RunWaiting while r.Context\(\) is available`
}

// A generator's goroutine stops when its context is done: the caller
// drains it as its own work, so the request's context belongs there.
func (s *Server) wait(w http.ResponseWriter, r *http.Request) {
	for range retains.Ticks(context.Background(), time.Second) { // want `context.Background\(\) passed to retains.Ticks while r.Context\(\) is available`
		break
	}
}
