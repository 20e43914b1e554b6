package pb

import (
	"context"

	"google.golang.org/grpc"
)

const (
	Customers_AddressSuggest_FullMethodName   = "/shop.Customers/AddressSuggest"
	Customers_AddPaymentMethod_FullMethodName = "/shop.Customers/AddPaymentMethod"
)

type AddressSuggestRequest struct {
	CustomerId string
	Query      string
	Country    string
}

type Address struct {
	Line1      string
	City       string
	PostalCode string
	Country    string
}

type AddressSuggestResponse struct {
	Suggestions []*Address
}

type AddPaymentMethodRequest struct {
	CustomerId  string
	Token       string
	MakeDefault bool
}

type PaymentMethod struct {
	Id    string
	Brand string
	Last4 string
}

// CustomersClient is the client API for the shop.Customers service.
type CustomersClient interface {
	AddressSuggest(ctx context.Context, in *AddressSuggestRequest, opts ...grpc.CallOption) (*AddressSuggestResponse, error)
	AddPaymentMethod(ctx context.Context, in *AddPaymentMethodRequest, opts ...grpc.CallOption) (*PaymentMethod, error)
}

type customersClient struct {
	cc grpc.ClientConnInterface
}

// heldout: clean — generated constructor, no call made
func NewCustomersClient(cc grpc.ClientConnInterface) CustomersClient {
	return &customersClient{cc}
}

// heldout: clean — a single Invoke, no layer here
func (c *customersClient) AddressSuggest(ctx context.Context, in *AddressSuggestRequest, opts ...grpc.CallOption) (*AddressSuggestResponse, error) {
	out := new(AddressSuggestResponse)
	err := c.cc.Invoke(ctx, Customers_AddressSuggest_FullMethodName, in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// heldout: clean — a single Invoke of an Add method, no hedge or retry layer here
func (c *customersClient) AddPaymentMethod(ctx context.Context, in *AddPaymentMethodRequest, opts ...grpc.CallOption) (*PaymentMethod, error) {
	out := new(PaymentMethod)
	err := c.cc.Invoke(ctx, Customers_AddPaymentMethod_FullMethodName, in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}
