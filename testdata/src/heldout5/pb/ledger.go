// Package pb holds the gRPC clients of the payments platform's internal
// services, in the shape protoc-gen-go-grpc generates them.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

const (
	Ledger_ChargeCard_FullMethodName = "/payments.Ledger/ChargeCard"
	Ledger_GetBalance_FullMethodName = "/payments.Ledger/GetBalance"
)

type ChargeRequest struct {
	AccountId   string
	AmountMinor int64
	Currency    string
	Reference   string
}

type ChargeResponse struct {
	ChargeId string
	Status   string
}

type BalanceRequest struct {
	AccountId string
}

type BalanceResponse struct {
	AvailableMinor int64
	PendingMinor   int64
	Currency       string
}

type TransferRequest struct {
	FromAccount string
	ToAccount   string
	AmountMinor int64
	Currency    string
}

type TransferResponse struct {
	TransferId string
}

// LedgerClient is the client API for the payments.Ledger service.
type LedgerClient interface {
	ChargeCard(ctx context.Context, in *ChargeRequest, opts ...grpc.CallOption) (*ChargeResponse, error)
	GetBalance(ctx context.Context, in *BalanceRequest, opts ...grpc.CallOption) (*BalanceResponse, error)
}

type ledgerClient struct {
	cc grpc.ClientConnInterface
}

// heldout: clean — generated constructor, no call made
func NewLedgerClient(cc grpc.ClientConnInterface) LedgerClient {
	return &ledgerClient{cc}
}

// heldout: clean — a single Invoke of a Charge method, no hedge or retry layer here
func (c *ledgerClient) ChargeCard(ctx context.Context, in *ChargeRequest, opts ...grpc.CallOption) (*ChargeResponse, error) {
	out := new(ChargeResponse)
	err := c.cc.Invoke(ctx, Ledger_ChargeCard_FullMethodName, in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// heldout: clean — a single read through Invoke
func (c *ledgerClient) GetBalance(ctx context.Context, in *BalanceRequest, opts ...grpc.CallOption) (*BalanceResponse, error) {
	out := new(BalanceResponse)
	err := c.cc.Invoke(ctx, Ledger_GetBalance_FullMethodName, in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}
