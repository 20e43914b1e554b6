// Package billing is the client for the ledger service: customer balances,
// charges for shipments, refunds and carrier settlements.
//
// Retries here go through resilvet's runtime retry package, so that a call
// made inside another runtime retry makes a single attempt.
package billing

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/retry"
)

// ErrKeyConflict is returned when an idempotency key was used for a
// different charge.
var ErrKeyConflict = errors.New("billing: idempotency key reused")

// ErrNotReady is returned by capture while the card authorization is
// still pending at the payment provider.
var ErrNotReady = errors.New("billing: authorization pending")

var (
	readPolicy  = &retry.Policy{MaxAttempts: 3, BaseDelay: 50 * time.Millisecond, MaxDelay: 500 * time.Millisecond}
	writePolicy = &retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 2 * time.Second}
	// Ledger entries carry their own key and the ledger deduplicates them,
	// so the ledger team asked for them to be retried even inside an outer
	// retry.
	ledgerPolicy = &retry.Policy{MaxAttempts: 5, BaseDelay: 200 * time.Millisecond, MaxDelay: 5 * time.Second, AllowNested: true}
	// Captures move money: one attempt, never repeated by the runtime.
	oncePolicy = &retry.Policy{MaxAttempts: 1}
)

// Charge is a charge for one shipment.
type Charge struct {
	Account        string `json:"account"`
	ShipmentID     string `json:"shipment_id"`
	AmountCents    int64  `json:"amount_cents"`
	IdempotencyKey string `json:"idempotency_key"`
}

// Receipt is the ledger's answer to a charge.
type Receipt struct {
	ID      string `json:"id"`
	Balance int64  `json:"balance"`
}

// Refund returns money for a cancelled shipment.
type Refund struct {
	Account     string `json:"account"`
	ShipmentID  string `json:"shipment_id"`
	AmountCents int64  `json:"amount_cents"`
}

// Entry is one ledger line of a carrier settlement.
type Entry struct {
	Key         string `json:"key"`
	Carrier     string `json:"carrier"`
	AmountCents int64  `json:"amount_cents"`
}

// Payout is a transfer to a carrier's bank account.
type Payout struct {
	Carrier     string `json:"carrier"`
	AmountCents int64  `json:"amount_cents"`
	Reference   string `json:"reference"`
}

// Client is the ledger client.
type Client struct {
	base string
	hc   *http.Client
}

// New returns a ledger client on hc.
//
// heldout: clean — constructor
func New(base string, hc *http.Client) *Client {
	return &Client{base: base, hc: hc}
}

// heldout: clean — one request, no loop
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusConflict:
		return ErrKeyConflict
	case resp.StatusCode == http.StatusAccepted:
		return ErrNotReady
	case resp.StatusCode >= 300:
		return fmt.Errorf("billing: %s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// Balance is the account's balance in cents.
//
// heldout: clean — single runtime DoValue layer
func (c *Client) Balance(ctx context.Context, account string) (int64, error) {
	return retry.DoValue(ctx, readPolicy, func(ctx context.Context) (int64, error) {
		var out struct {
			Balance int64 `json:"balance"`
		}
		err := c.do(ctx, http.MethodGet, "/accounts/"+account+"/balance", nil, &out)
		return out.Balance, err
	})
}

// Charge books a charge against the account.
//
// heldout: clean — single runtime DoValue layer
func (c *Client) Charge(ctx context.Context, ch Charge) (*Receipt, error) {
	return retry.DoValue(ctx, writePolicy, func(ctx context.Context) (*Receipt, error) {
		var r Receipt
		if err := c.do(ctx, http.MethodPost, "/charges", ch, &r); err != nil {
			return nil, err
		}
		return &r, nil
	})
}

// heldout: clean — single runtime layer (its AllowNested matters only to callers)
func (c *Client) postEntry(ctx context.Context, e Entry) error {
	return retry.Do(ctx, ledgerPolicy, func(ctx context.Context) error {
		return c.do(ctx, http.MethodPost, "/ledger/entries", e, nil)
	})
}

// Refund credits the account; it reads the balance first so the refund can
// be capped at what was charged.
//
// heldout: clean — runtime retry.Do around Balance's runtime retry.Do: documented not to multiply
func (c *Client) Refund(ctx context.Context, r Refund) error {
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		bal, err := c.Balance(ctx, r.Account)
		if err != nil {
			return err
		}
		if bal < 0 && -bal < r.AmountCents {
			r.AmountCents = -bal
		}
		return c.do(ctx, http.MethodPost, "/refunds", r, nil)
	})
}

// Settle posts a carrier's settlement lines and closes the settlement.
//
// heldout: retrystack — nested: runtime retry.Do around postEntry whose policy sets AllowNested (4 × 5)
func (c *Client) Settle(ctx context.Context, carrier string, lines []Entry) error {
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		var total int64
		for _, e := range lines {
			if err := c.postEntry(ctx, e); err != nil {
				return err
			}
			total += e.AmountCents
		}
		return c.do(ctx, http.MethodPost, "/settlements", map[string]any{"carrier": carrier, "total_cents": total}, nil)
	})
}

// ChargeIdempotent charges, and if the key was already used for another
// charge, draws a new key and charges again.
//
// heldout: retrystack — nested: a for-range-2 loop around Charge's runtime layer, which does not know it is nested
func (c *Client) ChargeIdempotent(ctx context.Context, ch Charge) (*Receipt, error) {
	var err error
	for range 2 {
		var r *Receipt
		if r, err = c.Charge(ctx, ch); err == nil {
			return r, nil
		}
		if !errors.Is(err, ErrKeyConflict) {
			return nil, err
		}
		ch.IdempotencyKey = fmt.Sprintf("%s/%d", ch.ShipmentID, time.Now().UnixNano())
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil, err
}

// Capture captures an authorized card payment. The provider answers 202
// while the authorization is pending; we look again a few times.
//
// heldout: clean — one hand-written layer; the runtime retry.Do inside uses MaxAttempts 1, which is no layer
func (c *Client) Capture(ctx context.Context, authID string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = retry.Do(ctx, oncePolicy, func(ctx context.Context) error {
			return c.do(ctx, http.MethodPost, "/captures/"+authID, nil, nil)
		})
		if !errors.Is(err, ErrNotReady) {
			return err
		}
		t := time.NewTimer(time.Duration(attempt+1) * time.Second)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// SendPayout transfers money to a carrier. The bank gateway drops
// connections under load; a dropped connection is tried again straight away.
//
// heldout: retrystack — hot (hc.Do retried at once inside the closure) and nested inside the runtime layer
func (c *Client) SendPayout(ctx context.Context, p Payout) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		var err error
		for i := 0; i < 3; i++ {
			var req *http.Request
			req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/payouts", bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("Idempotency-Key", p.Reference)
			var resp *http.Response
			if resp, err = c.hc.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode < 300 {
					return nil
				}
				return fmt.Errorf("billing: payout %s: %s", p.Reference, resp.Status)
			}
		}
		return err
	})
}
