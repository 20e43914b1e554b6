// Package grpcxdeadline dials with the runtime's deadline interceptor,
// which bounds every call without a deadline: its calls are not reported.
package grpcxdeadline

import (
	"context"
	"time"

	"github.com/resilvet/resilvet/runtime/grpcx"
	"google.golang.org/grpc"
)

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443", grpc.WithChainUnaryInterceptor(
		grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 2 * time.Second}),
		grpcx.UnaryRetry(grpcx.RetryOptions{}),
	))
}

func call() {
	conn, _ := dial()
	conn.Invoke(context.Background(), "/x", nil, nil)
}
