// Package grpcretry holds retry loops around gRPC calls on connections
// dialled with retries: a service config's retryPolicy, a retry
// interceptor.
package grpcretry

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"

	"notimeout/orderspb"
)

const serviceConfig = `{"methodConfig": [{
	"name": [{"service": "orders.Orders", "method": "GetOrder"}],
	"retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}
}]}`

type Service struct {
	orders orderspb.OrdersClient
}

func New(target string) (*Service, error) {
	conn, err := grpc.NewClient(target, grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		return nil, err
	}
	return &Service{orders: orderspb.NewOrdersClient(conn)}, nil
}

// Order retries a call the connection's service config retries 4 times.
func (s *Service) Order(ctx context.Context, id string) (*orderspb.Order, error) {
	var err error
	for i := 0; i < 3; i++ {
		var o *orderspb.Order
		if o, err = s.orders.GetOrder(ctx, &orderspb.GetOrderRequest{Id: id}); err == nil { // want `retry loop \(3 attempts\) wraps the service config's retryPolicy of the connection dialled at grpcretry.go:\d+ \(4 attempts\): up to 12 attempts per call; the client already retries`
			return o, nil
		}
		pause(ctx)
	}
	return nil, err
}

// Intercepted dials with a retry interceptor of 3 retries and retries
// Invoke twice around it.
func Intercepted(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	if err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		if err = conn.Invoke(ctx, "/orders.Orders/GetOrder", nil, nil); err == nil { // want `retry loop \(2 attempts\) wraps the retry interceptor of the connection dialled at grpcretry.go:\d+ \(4 attempts\): up to 8 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// OtherMethod: the service config retries GetOrder only.
func OtherMethod(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		if err = conn.Invoke(ctx, "/orders.Orders/ListOrders", nil, nil); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// NoRetries: the interceptor without WithMax makes no retry.
func NoRetries(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))
	if err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		if err = conn.Invoke(ctx, "/orders.Orders/GetOrder", nil, nil); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
