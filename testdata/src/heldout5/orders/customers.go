package orders

import (
	"context"

	"heldout5/pb"
)

// ShippingAddress suggests addresses for the checkout form.
//
// heldout: clean — AddressSuggest on the hedging customers connection: "Address" does not start with "Add" as a word
func (s *Service) ShippingAddress(ctx context.Context, customerID, query, country string) ([]*pb.Address, error) {
	resp, err := pb.NewCustomersClient(s.customers).AddressSuggest(ctx, &pb.AddressSuggestRequest{
		CustomerId: customerID,
		Query:      query,
		Country:    country,
	})
	if err != nil {
		return nil, err
	}
	return resp.Suggestions, nil
}

// SavePaymentMethod stores a tokenised card on the customer.
//
// heldout: hedgeidem — AddPaymentMethod (an Add method) through a generated client on the connection clients.DialCustomers returns, which hedges shop.Customers (2 copies)
func (s *Service) SavePaymentMethod(ctx context.Context, customerID, token string, makeDefault bool) (*pb.PaymentMethod, error) {
	return pb.NewCustomersClient(s.customers).AddPaymentMethod(ctx, &pb.AddPaymentMethodRequest{
		CustomerId:  customerID,
		Token:       token,
		MakeDefault: makeDefault,
	})
}
