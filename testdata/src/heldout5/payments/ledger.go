package payments

import (
	"context"
	"fmt"

	"heldout5/pb"
)

// ledgerServiceConfig hedges every ledger call after 50ms.
const ledgerServiceConfig = `{
  "methodConfig": [{
    "name": [{"service": "payments.Ledger"}],
    "hedgingPolicy": {
      "maxAttempts": 3,
      "hedgingDelay": "0.05s",
      "nonFatalStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]
    }
  }]
}`

// ChargeLedger books a card charge on the internal ledger.
//
// heldout: hedgeidem — generated client's ChargeCard on a connection whose service config hedges payments.Ledger (3 copies)
func (c *Client) ChargeLedger(ctx context.Context, accountID string, amountMinor int64, currency, ref string) (string, error) {
	resp, err := pb.NewLedgerClient(c.ledgerConn).ChargeCard(ctx, &pb.ChargeRequest{
		AccountId:   accountID,
		AmountMinor: amountMinor,
		Currency:    currency,
		Reference:   ref,
	})
	if err != nil {
		return "", fmt.Errorf("ledger charge %s: %w", ref, err)
	}
	return resp.ChargeId, nil
}

// Balance reads an account's balance from the ledger.
//
// heldout: clean — GetBalance, a Get method, on the hedging connection
func (c *Client) Balance(ctx context.Context, accountID string) (int64, error) {
	resp, err := pb.NewLedgerClient(c.ledgerConn).GetBalance(ctx, &pb.BalanceRequest{AccountId: accountID})
	if err != nil {
		return 0, err
	}
	return resp.AvailableMinor, nil
}

// Transfer moves money between two ledger accounts. The method is not in
// the generated client yet, so it is invoked by name.
//
// heldout: hedgeidem — ClientConn.Invoke of the constant /payments.Ledger/CreateTransfer (a Create method) on the hedging connection
func (c *Client) Transfer(ctx context.Context, from, to string, amountMinor int64, currency string) (string, error) {
	in := &pb.TransferRequest{FromAccount: from, ToAccount: to, AmountMinor: amountMinor, Currency: currency}
	out := new(pb.TransferResponse)
	if err := c.ledgerConn.Invoke(ctx, "/payments.Ledger/CreateTransfer", in, out); err != nil {
		return "", fmt.Errorf("transfer %s -> %s: %w", from, to, err)
	}
	return out.TransferId, nil
}
