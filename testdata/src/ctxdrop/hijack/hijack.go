// Package hijack has handlers that take the connection over from the
// server. After Hijack the request's context ends when the handler
// returns, not when the client goes away: passing it to a dial or a
// command would change nothing, and ctxdrop leaves those calls alone.
// Before the hijack, or on a path that never hijacks, the request's
// context is the client's, and dropping it is reported.
package hijack

import (
	"io"
	"net"
	"net/http"
	"os/exec"
)

// connect tunnels a CONNECT request: it hijacks, then dials.
func connect(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	client, _, err := hj.Hijack()
	if err != nil {
		return
	}
	defer client.Close()
	up, err := net.Dial("tcp", r.URL.Host)
	if err != nil {
		return
	}
	defer up.Close()
	go io.Copy(up, client)
	io.Copy(client, up)
}

// run takes the connection over through a ResponseController, then runs
// the command the client asked for.
func run(w http.ResponseWriter, r *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	cmd := exec.Command("sh", "-c", r.URL.Query().Get("cmd"))
	cmd.Stdout = conn
	_ = cmd.Run()
}

// dialFirst dials while the server still watches the client.
func dialFirst(w http.ResponseWriter, r *http.Request) {
	up, err := net.Dial("tcp", r.URL.Host) // want `net.Dial ignores the caller's context while r.Context\(\) is available`
	if err != nil {
		return
	}
	defer up.Close()
	hj, _ := w.(http.Hijacker)
	client, _, err := hj.Hijack()
	if err != nil {
		return
	}
	client.Close()
}

// either hijacks on one path and dials on the other, where the request's
// context is still the client's.
func either(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
		return
	}
	up, err := net.Dial("tcp", r.URL.Host) // want `net.Dial ignores the caller's context while r.Context\(\) is available`
	if err != nil {
		return
	}
	up.Close()
}
