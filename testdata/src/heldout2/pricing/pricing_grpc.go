// Package pricing computes trip fares: the gRPC service, its client, and
// the surge feed poller.
package pricing

import (
	"context"

	"google.golang.org/grpc"

	"heldout2/routing"
)

// QuoteRequest asks for a fare.
type QuoteRequest struct {
	RiderID string
	City    string
	Zone    string
	From    routing.Point
	To      routing.Point
	Product string
}

// QuoteResponse is a priced quote, valid until ExpiresUnix.
type QuoteResponse struct {
	QuoteID     string
	FareCents   int64
	Currency    string
	Surge       float64
	ExpiresUnix int64
}

// HoldRequest reserves or releases a quoted fare.
type HoldRequest struct {
	QuoteID string
	RiderID string
	Minutes int
}

// HoldResponse acknowledges a hold.
type HoldResponse struct{ OK bool }

// SurgeRequest names a zone.
type SurgeRequest struct {
	Zone       string
	LastSeenAt int64
}

// SurgeUpdate is a new multiplier for a zone.
type SurgeUpdate struct {
	Zone       string
	Multiplier float64
	At         int64
}

// PricingClient is the client API for the pricing.v1.Pricing service.
type PricingClient interface {
	Quote(ctx context.Context, in *QuoteRequest, opts ...grpc.CallOption) (*QuoteResponse, error)
	ReleaseHold(ctx context.Context, in *HoldRequest, opts ...grpc.CallOption) (*HoldResponse, error)
	// WaitForSurgeChange blocks until the zone's multiplier changes.
	WaitForSurgeChange(ctx context.Context, in *SurgeRequest, opts ...grpc.CallOption) (*SurgeUpdate, error)
}

// PricingServer is the server API for the pricing.v1.Pricing service.
type PricingServer interface {
	Quote(context.Context, *QuoteRequest) (*QuoteResponse, error)
	Estimate(context.Context, *QuoteRequest) (*QuoteResponse, error)
	Hold(context.Context, *HoldRequest) (*HoldResponse, error)
}

type pricingClient struct {
	cc grpc.ClientConnInterface
}

// NewPricingClient wraps a connection to the pricing service.
// heldout: clean — generated constructor, no I/O
func NewPricingClient(cc grpc.ClientConnInterface) PricingClient {
	return &pricingClient{cc}
}

// heldout: clean — generated stub, ctx is the caller's
func (c *pricingClient) Quote(ctx context.Context, in *QuoteRequest, opts ...grpc.CallOption) (*QuoteResponse, error) {
	out := new(QuoteResponse)
	if err := c.cc.Invoke(ctx, "/pricing.v1.Pricing/Quote", in, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// heldout: clean — generated stub, ctx is the caller's
func (c *pricingClient) ReleaseHold(ctx context.Context, in *HoldRequest, opts ...grpc.CallOption) (*HoldResponse, error) {
	out := new(HoldResponse)
	if err := c.cc.Invoke(ctx, "/pricing.v1.Pricing/ReleaseHold", in, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// heldout: clean — generated stub, ctx is the caller's
func (c *pricingClient) WaitForSurgeChange(ctx context.Context, in *SurgeRequest, opts ...grpc.CallOption) (*SurgeUpdate, error) {
	out := new(SurgeUpdate)
	if err := c.cc.Invoke(ctx, "/pricing.v1.Pricing/WaitForSurgeChange", in, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}
