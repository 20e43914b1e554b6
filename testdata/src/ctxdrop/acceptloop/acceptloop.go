// Package acceptloop has an accept loop that makes a context per
// connection from context.Background() and hands it to the connection's
// handler: the handler's context is no caller's, so calls in it on a
// context of their own drop nothing. Where a handler can also get a
// caller's context, or where callers outside the package may exist, the
// drops stay reported.
package acceptloop

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"time"
)

type connKey struct{}

type server struct {
	hooks *http.Client
}

// login, audit, notify and ping each call a hook server on a context of
// their own: a drop wherever a caller's context was there to pass.
func (s *server) login(peer string) error  { return s.hook(context.Background(), "login", peer) }
func (s *server) audit(peer string) error  { return s.hook(context.Background(), "audit", peer) }
func (s *server) notify(peer string) error { return s.hook(context.Background(), "notify", peer) }
func (s *server) ping(peer string) error   { return s.hook(context.Background(), "ping", peer) }
func (s *server) greet(peer string) error  { return s.hook(context.Background(), "greet", peer) }

func (s *server) hook(ctx context.Context, op, peer string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://hooks/"+op+"?peer="+peer, nil)
	if err != nil {
		return err
	}
	resp, err := s.hooks.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// serve accepts connections; each gets a context of its own with the
// connection in it. serve has no context to hand on.
func (s *server) serve(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		ctx := context.WithValue(context.Background(), connKey{}, c)
		go func(ctx context.Context, conn net.Conn) {
			s.handle(ctx, conn)
		}(ctx, c)
	}
}

// handle's context comes from serve alone, a root with a value: the
// login's own context and the dial without one drop nothing.
func (s *server) handle(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	if s.login(conn.RemoteAddr().String()) != nil {
		return
	}
	if s.hook(ctx, "open", conn.RemoteAddr().String()) != nil {
		return
	}
	up, err := net.Dial("tcp", "backend:80")
	if err != nil {
		return
	}
	up.Close()
}

// relay's context comes from a detached one and from itself.
func (s *server) relay(ctx context.Context, conn net.Conn, hops int) {
	if hops > 0 {
		s.relay(ctx, conn, hops-1)
		return
	}
	_ = s.login(conn.RemoteAddr().String())
}

func (s *server) startRelay(conn net.Conn) {
	go s.relay(context.WithoutCancel(context.TODO()), conn, 3)
}

// proxy is called from serveHTTP with the request's context too: its
// context is a caller's, and the drop is reported.
func (s *server) proxy(ctx context.Context, peer string) error {
	return s.audit(peer) // want `call to acceptloop.server.audit drops the caller's context`
}

func (s *server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	_ = s.proxy(r.Context(), r.RemoteAddr)
}

func (s *server) background(peer string) {
	_ = s.proxy(context.Background(), peer)
}

// timed gets a root with a deadline: the deadline is the caller's to
// keep, and dropping it is reported.
func (s *server) timed(ctx context.Context, peer string) error {
	return s.notify(peer) // want `call to acceptloop.server.notify drops the caller's context`
}

func (s *server) runTimed(peer string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.timed(ctx, peer)
}

// Check is exported: callers elsewhere may pass their own context.
func (s *server) Check(ctx context.Context, peer string) error {
	return s.ping(peer) // want `call to acceptloop.server.ping drops the caller's context`
}

func (s *server) checkAll(peers []string) {
	for _, p := range peers {
		_ = s.Check(context.Background(), p)
	}
}

// onConn is handed on as a method value: who calls it, with what, the
// package does not see.
func (s *server) onConn(ctx context.Context, peer string) error {
	return s.greet(peer) // want `call to acceptloop.server.greet drops the caller's context`
}

func (s *server) register(hooks map[string]func(context.Context, string) error) {
	hooks["conn"] = s.onConn
	_ = s.onConn(context.Background(), "self")
}

// accept hands a root to handle while it has a context of its own: the
// root is reported where it is made.
func (s *server) accept(ctx context.Context, l net.Listener) {
	c, err := l.Accept()
	if err != nil {
		return
	}
	s.handle(context.Background(), c) // want `context.Background\(\) passed to acceptloop.server.handle while ctx is available`
}

// readConnect reads a CONNECT request off the connection itself: its
// context is context.Background(), and tunnel's request is no caller's.
func (s *server) readConnect(c net.Conn) {
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	s.tunnel(req, c)
}

func (s *server) tunnel(req *http.Request, c net.Conn) {
	up, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		return
	}
	up.Close()
}

// forward gets a request read off a connection and one a server
// received: the second's context is its caller's.
func (s *server) forward(req *http.Request) {
	up, err := net.Dial("tcp", req.URL.Host) // want `net.Dial ignores the caller's context while req.Context\(\) is available`
	if err != nil {
		return
	}
	up.Close()
}

func (s *server) forwardRead(c net.Conn) {
	if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
		s.forward(req)
	}
}

func (s *server) forwardServed(w http.ResponseWriter, r *http.Request) {
	s.forward(r)
}
