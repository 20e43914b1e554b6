// Package grpcintercepted dials with a timeout interceptor: every call
// without a deadline gets one.
package grpcintercepted

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"

	"notimeout/orderspb"
)

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443", grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(2*time.Second)))
}

func call(conn *grpc.ClientConn) {
	conn.Invoke(context.Background(), "/x", nil, nil)
}

// A generated client on a connection this package does not follow (a
// constructor's argument): the package builds a timeout interceptor, and
// is taken to set it on its connections.
type server struct {
	orders orderspb.OrdersClient
}

func newServer(conn *grpc.ClientConn) *server {
	return &server{orders: orderspb.NewOrdersClient(conn)}
}

func (s *server) poll() {
	s.orders.GetOrder(context.Background(), &orderspb.GetOrderRequest{})
}

// A connection dialled here without the interceptor is judged by its
// own options: per connection, not per package.
func plain() {
	conn, err := grpc.NewClient("billing:443")
	if err != nil {
		return
	}
	conn.Invoke(context.Background(), "/billing.Billing/Get", nil, nil)                        // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
	orderspb.NewOrdersClient(conn).GetOrder(context.Background(), &orderspb.GetOrderRequest{}) // want `context.Background\(\) reaches grpc.ClientConnInterface.Invoke`
}
