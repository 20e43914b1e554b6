// Package payments talks to the card processor and exposes the payment
// endpoints of the API.
package payments

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"heldout/internal/httpx"
)

// Client is a client of the processor's REST API.
type Client struct {
	base string
	hc   *http.Client
}

type Option func(*Client)

// heldout: clean — option setter, no call
func WithTimeout(d time.Duration) Option {
	return func(c *Client) { c.hc.Timeout = d }
}

// heldout: clean — default client has a 10s Timeout; no call
func NewClient(base string, opts ...Option) *Client {
	c := &Client{
		base: strings.TrimRight(base, "/"),
		hc:   httpx.NewClient(10 * time.Second),
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

type ChargeRequest struct {
	Customer string `json:"customer"`
	AmountCt int64  `json:"amount"`
	Currency string `json:"currency"`
	Token    string `json:"token"`
}

type Charge struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// heldout: clean — forwards the caller's ctx; client has a Timeout
func (c *Client) Charge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	var out Charge
	if err := httpx.PostJSON(ctx, c.hc, c.base+"/v1/charges", req, &out); err != nil {
		return nil, fmt.Errorf("charge %s: %w", req.Customer, err)
	}
	return &out, nil
}

// heldout: clean — forwards the caller's ctx
func (c *Client) Capture(ctx context.Context, chargeID string) (*Charge, error) {
	var out Charge
	u := c.base + "/v1/charges/" + url.PathEscape(chargeID) + "/capture"
	if err := httpx.PostJSON(ctx, c.hc, u, struct{}{}, &out); err != nil {
		return nil, fmt.Errorf("capture %s: %w", chargeID, err)
	}
	return &out, nil
}

// heldout: clean — forwards the caller's ctx
func (c *Client) Void(ctx context.Context, chargeID string) error {
	u := c.base + "/v1/charges/" + url.PathEscape(chargeID) + "/void"
	return httpx.PostJSON(ctx, c.hc, u, struct{}{}, nil)
}

// heldout: ctxdrop — builds the refund with http.NewRequest although ctx is in scope (client has a Timeout, so only the ctx is lost)
func (c *Client) Refund(ctx context.Context, chargeID string, amountCt int64) error {
	body := fmt.Sprintf(`{"charge":%q,"amount":%d}`, chargeID, amountCt)
	req, err := http.NewRequest(http.MethodPost, c.base+"/v1/refunds", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "refund-"+chargeID)
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("refund %s: %w", chargeID, err)
	}
	defer httpx.DrainAndClose(resp)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("refund %s: %s", chargeID, resp.Status)
	}
	return nil
}

// Status reports the processor's view of a charge. Used by the
// reconciler, which has no request context.
//
// heldout: clean — no ctx in scope; c.hc has the 10s Timeout from NewClient
func (c *Client) Status(chargeID string) (string, error) {
	resp, err := c.hc.Get(c.base + "/v1/charges/" + url.PathEscape(chargeID))
	if err != nil {
		return "", err
	}
	defer httpx.DrainAndClose(resp)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %s: %s", chargeID, resp.Status)
	}
	var buf [64]byte
	n, _ := resp.Body.Read(buf[:])
	return strings.TrimSpace(string(buf[:n])), nil
}
