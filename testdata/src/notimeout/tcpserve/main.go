// Command tcpserve serves connections from a raw listener: a service,
// though it starts no HTTP or gRPC server, so its per-connection work is
// judged (a one-shot tool's is not). The connection handler's context is
// context.Background() at every call, so ctxdrop has no caller's context
// to pass; what has no deadline is reported here.
package main

import (
	"context"
	"database/sql"
	"net"
	"net/http"
)

var db *sql.DB

func notify(peer string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://hooks/"+peer, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req) // want `http.Client.Do has no deadline: the request's context \(context.Background\(\) at main.go:18:41\) has none`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func handle(ctx context.Context, c net.Conn) {
	defer c.Close()
	_ = notify(c.RemoteAddr().String())
	_, _ = db.QueryContext(ctx, "select 1")
}

func main() {
	l, err := net.Listen("tcp", ":9000")
	if err != nil {
		return
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go handle(context.Background(), c) // want `context.Background\(\) reaches sql.DB.QueryContext \(via main.handle -> sql.DB.QueryContext\) with no deadline`
	}
}
