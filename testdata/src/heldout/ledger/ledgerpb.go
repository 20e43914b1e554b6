// Package ledger holds the gRPC clients generated from ledger.proto and
// fraud.proto (trimmed to what the services use).
package ledger

import (
	"context"

	"google.golang.org/grpc"
)

type PostEntryRequest struct {
	Account  string
	AmountCt int64
	Ref      string
}

type PostEntryReply struct{ EntryID string }

type GetBalanceRequest struct{ Account string }

type GetBalanceReply struct{ BalanceCt int64 }

type ScoreRequest struct {
	Customer string
	AmountCt int64
}

type ScoreReply struct{ Risk float64 }

type LedgerClient interface {
	PostEntry(ctx context.Context, in *PostEntryRequest, opts ...grpc.CallOption) (*PostEntryReply, error)
	GetBalance(ctx context.Context, in *GetBalanceRequest, opts ...grpc.CallOption) (*GetBalanceReply, error)
}

type ledgerClient struct {
	cc grpc.ClientConnInterface
}

// heldout: clean — generated constructor, no call
func NewLedgerClient(cc grpc.ClientConnInterface) LedgerClient {
	return &ledgerClient{cc}
}

// heldout: clean — generated stub passes the caller's ctx to Invoke
func (c *ledgerClient) PostEntry(ctx context.Context, in *PostEntryRequest, opts ...grpc.CallOption) (*PostEntryReply, error) {
	out := new(PostEntryReply)
	err := c.cc.Invoke(ctx, "/ledger.v1.Ledger/PostEntry", in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// heldout: clean — generated stub passes the caller's ctx to Invoke
func (c *ledgerClient) GetBalance(ctx context.Context, in *GetBalanceRequest, opts ...grpc.CallOption) (*GetBalanceReply, error) {
	out := new(GetBalanceReply)
	err := c.cc.Invoke(ctx, "/ledger.v1.Ledger/GetBalance", in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

type FraudClient interface {
	Score(ctx context.Context, in *ScoreRequest, opts ...grpc.CallOption) (*ScoreReply, error)
}

type fraudClient struct {
	cc grpc.ClientConnInterface
}

// heldout: clean — generated constructor, no call
func NewFraudClient(cc grpc.ClientConnInterface) FraudClient {
	return &fraudClient{cc}
}

// heldout: clean — generated stub passes the caller's ctx to Invoke
func (c *fraudClient) Score(ctx context.Context, in *ScoreRequest, opts ...grpc.CallOption) (*ScoreReply, error) {
	out := new(ScoreReply)
	err := c.cc.Invoke(ctx, "/fraud.v1.Fraud/Score", in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}
