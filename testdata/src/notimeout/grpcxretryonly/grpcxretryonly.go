// Package grpcxretryonly dials with the runtime's retry interceptor only,
// which sets no deadline: its calls are reported.
package grpcxretryonly

import (
	"context"

	"github.com/resilvet/resilvet/runtime/grpcx"
	"google.golang.org/grpc"
)

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443", grpc.WithChainUnaryInterceptor(grpcx.UnaryRetry(grpcx.RetryOptions{})))
}

func call() {
	conn, _ := dial()
	conn.Invoke(context.Background(), "/x", nil, nil) // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
}
