// Package grpcintercepted dials with a timeout interceptor: every call
// without a deadline gets one.
package grpcintercepted

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"
)

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443", grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(2*time.Second)))
}

func call(conn *grpc.ClientConn) {
	conn.Invoke(context.Background(), "/x", nil, nil)
}
