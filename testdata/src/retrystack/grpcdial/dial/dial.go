// Package dial dials gRPC connections with retries for other packages.
package dial

import (
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"

	"notimeout/orderspb"
)

const ordersConfig = `{"methodConfig": [{
	"name": [{"service": "orders.Orders", "method": "GetOrder"}],
	"retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]},
	"timeout": "2s"
}]}`

// Orders returns a connection whose service config retries GetOrder.
func Orders(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithDefaultServiceConfig(ordersConfig))
}

// OrdersClient returns a generated client made from such a connection.
func OrdersClient(target string) (orderspb.OrdersClient, error) {
	conn, err := Orders(target)
	if err != nil {
		return nil, err
	}
	return orderspb.NewOrdersClient(conn), nil
}

// Intercepted returns a connection with a retry interceptor of 2
// retries.
func Intercepted(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(2), retry.WithPerRetryTimeout(time.Second))))
}

// Plain returns a connection that does not retry.
func Plain(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target)
}

// Conns holds the connections the service uses, dialled here.
type Conns struct {
	Orders *grpc.ClientConn
}

// NewConns dials the orders connection with its retry policy.
func NewConns(target string) (*Conns, error) {
	conn, err := Orders(target)
	if err != nil {
		return nil, err
	}
	return &Conns{Orders: conn}, nil
}
