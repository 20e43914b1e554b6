// Package grpcconns dials the connections other packages call through:
// each connection is judged by its own options.
package grpcconns

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"

	"notimeout/orderspb"
)

// NewOrders's connection puts a deadline on every call without one.
func NewOrders() (orderspb.OrdersClient, error) { // want NewOrders:`^returns\(conn0:bounded\) outbound$`
	conn, err := grpc.NewClient("orders:443", grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(2*time.Second)))
	if err != nil {
		return nil, err
	}
	return orderspb.NewOrdersClient(conn), nil
}

// NewBilling's connection has no timeout interceptor.
func NewBilling() (orderspb.OrdersClient, error) { // want NewBilling:`^returns\(conn0:unbounded\) outbound$`
	conn, err := grpc.NewClient("billing:443")
	if err != nil {
		return nil, err
	}
	return orderspb.NewOrdersClient(conn), nil
}

// NewInventory chains a hand-written deadline interceptor through an
// options slice.
func NewInventory() (*grpc.ClientConn, error) { // want NewInventory:`^returns\(conn0:bounded\) outbound$`
	opts := []grpc.DialOption{grpc.WithChainUnaryInterceptor(logging, withDeadline(3*time.Second))}
	return grpc.NewClient("inventory:443", opts...)
}

// NewLedger's interceptors only log.
func NewLedger() (*grpc.ClientConn, error) { // want NewLedger:`^returns\(conn0:unbounded\) outbound$`
	opts := []grpc.DialOption{grpc.WithChainUnaryInterceptor(logging)}
	opts = append(opts, grpc.WithUnaryInterceptor(logging))
	return grpc.NewClient("ledger:443", opts...)
}

// Dial takes its options from the caller: what they hold is not known
// here, and the result carries no claim.
func Dial(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) { // want Dial:`^outbound$`
	return grpc.NewClient(addr, opts...)
}

func withDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func logging(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error { // want logging:`^ctxIO\(0\) calls\(5,x1,`
	return invoker(ctx, method, req, reply, cc, opts...)
}

// NewCatalog's service config gives its methods a timeout.
func NewCatalog() (*grpc.ClientConn, error) { // want NewCatalog:`^returns\(conn0:bounded\) outbound$`
	return grpc.NewClient("catalog:443", grpc.WithAuthority("catalog"), grpc.WithDefaultServiceConfig(`{
		"methodConfig": [{"name": [{"service": "catalog.Catalog"}], "timeout": "1.5s"}]
	}`))
}

// NewSearch's service config retries but sets no timeout.
func NewSearch() (*grpc.ClientConn, error) { // want NewSearch:`^returns\(conn0:unbounded\) conn\(/ x3\) outbound$`
	return grpc.NewClient("search:443", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3}}]}`))
}
