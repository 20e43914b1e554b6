// Package grpchedge hedges gRPC calls through the service config.
package grpchedge

import (
	"context"

	"google.golang.org/grpc"
)

type CreateOrderRequest struct{}
type GetOrderRequest struct{}
type Order struct{}

type OrdersClient interface {
	CreateOrder(ctx context.Context, in *CreateOrderRequest, opts ...grpc.CallOption) (*Order, error)
	GetOrder(ctx context.Context, in *GetOrderRequest, opts ...grpc.CallOption) (*Order, error)
	AddressOf(ctx context.Context, in *GetOrderRequest, opts ...grpc.CallOption) (*Order, error)
}

type ordersClient struct{ cc grpc.ClientConnInterface }

func (c *ordersClient) CreateOrder(ctx context.Context, in *CreateOrderRequest, opts ...grpc.CallOption) (*Order, error) {
	out := new(Order)
	err := c.cc.Invoke(ctx, "/shop.Orders/CreateOrder", in, out, opts...)
	return out, err
}

func (c *ordersClient) GetOrder(ctx context.Context, in *GetOrderRequest, opts ...grpc.CallOption) (*Order, error) {
	out := new(Order)
	err := c.cc.Invoke(ctx, "/shop.Orders/GetOrder", in, out, opts...)
	return out, err
}

func (c *ordersClient) AddressOf(ctx context.Context, in *GetOrderRequest, opts ...grpc.CallOption) (*Order, error) {
	out := new(Order)
	err := c.cc.Invoke(ctx, "/shop.Orders/AddressOf", in, out, opts...)
	return out, err
}

func NewOrdersClient(cc grpc.ClientConnInterface) OrdersClient { return &ordersClient{cc} }

const serviceConfig = `{"methodConfig": [{
	"name": [{"service": "shop.Orders"}],
	"hedgingPolicy": {"maxAttempts": 3, "hedgingDelay": "0.05s"}
}]}`

func Place(ctx context.Context) error {
	conn, err := grpc.NewClient("orders:443", grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		return err
	}
	c := NewOrdersClient(conn)
	if _, err := c.GetOrder(ctx, &GetOrderRequest{}); err != nil { // a read: hedging it is the point
		return err
	}
	if _, err := c.AddressOf(ctx, &GetOrderRequest{}); err != nil { // "Add" is not a word of AddressOf
		return err
	}
	_, err = c.CreateOrder(ctx, &CreateOrderRequest{}) // want `the service config's hedgingPolicy \(3 copies\) of the connection dialled at grpchedge.go:48 hedges grpchedge.OrdersClient.CreateOrder, which calls grpchedge.OrdersClient.CreateOrder, whose name \(Create…\) says it creates or adds`
	return err
}
