// Package use calls through connections another package dialled with
// retries: its loops around those calls nest.
package use

import (
	"context"
	"time"

	"notimeout/orderspb"
	"retrystack/grpcdial/dial"
)

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Order: a client from dial.OrdersClient, whose connection retries
// GetOrder 4 times.
func Order(ctx context.Context, id string) (*orderspb.Order, error) {
	c, err := dial.OrdersClient("orders:443")
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		var o *orderspb.Order
		if o, err = c.GetOrder(ctx, &orderspb.GetOrderRequest{Id: id}); err == nil { // want `retry loop \(3 attempts\) wraps the service config's retryPolicy of the connection dialled at dial.go:\d+ \(4 attempts\): up to 12 attempts per call; the client already retries`
			return o, nil
		}
		pause(ctx)
	}
	return nil, err
}

// Service keeps a client made in its constructor from a connection dial
// returns.
type Service struct {
	orders orderspb.OrdersClient
}

func New() (*Service, error) {
	conn, err := dial.Orders("orders:443")
	if err != nil {
		return nil, err
	}
	return &Service{orders: orderspb.NewOrdersClient(conn)}, nil
}

func (s *Service) Order(ctx context.Context, id string) error {
	var err error
	for range 2 {
		if _, err = s.orders.GetOrder(ctx, &orderspb.GetOrderRequest{Id: id}); err == nil { // want `retry loop \(2 attempts\) wraps the service config's retryPolicy of the connection dialled at dial.go:\d+ \(4 attempts\): up to 8 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// Invoke calls through the intercepted connection.
func Invoke(ctx context.Context) error {
	conn, err := dial.Intercepted("orders:443")
	if err != nil {
		return err
	}
	for range 2 {
		if err = conn.Invoke(ctx, "/orders.Orders/GetOrder", nil, nil); err == nil { // want `retry loop \(2 attempts\) wraps the retry interceptor of the connection dialled at dial.go:\d+ \(3 attempts\): up to 6 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// Plain: the connection does not retry, no nest.
func Plain(ctx context.Context) error {
	conn, err := dial.Plain("orders:443")
	if err != nil {
		return err
	}
	for range 2 {
		if err = conn.Invoke(ctx, "/orders.Orders/GetOrder", nil, nil); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// FromField calls on a connection held in another package's field.
func FromField(ctx context.Context, c *dial.Conns, id string) (o *orderspb.Order, err error) {
	client := orderspb.NewOrdersClient(c.Orders)
	for range 3 {
		if o, err = client.GetOrder(ctx, &orderspb.GetOrderRequest{Id: id}); err == nil { // want `retry loop \(3 attempts\) wraps the service config's retryPolicy of the connection dialled at dial.go:\d+ \(4 attempts\): up to 12 attempts per call`
			return o, nil
		}
		pause(ctx)
	}
	return nil, err
}
