// Package interceptorset is interceptor with its interceptor named in
// -resilvet.timeout-interceptors: nothing to report.
package interceptorset

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// Deadline gives every call without a deadline one of d.
func Deadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443", grpc.WithUnaryInterceptor(Deadline(2*time.Second)))
}

func call(conn *grpc.ClientConn) {
	conn.Invoke(context.Background(), "/x", nil, nil)
}
