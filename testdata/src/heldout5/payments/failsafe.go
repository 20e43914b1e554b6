package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/failsafehttp"
	"github.com/failsafe-go/failsafe-go/hedgepolicy"
)

// Authorize places a hold on the card for the amount.
//
// heldout: hedgeidem — failsafe-go executor with a hedgepolicy (builder's Build) whose Get sends a POST without a key
func (c *Client) Authorize(ctx context.Context, ch Charge) (*ChargeResult, error) {
	body, err := json.Marshal(ch)
	if err != nil {
		return nil, err
	}
	hp := hedgepolicy.NewBuilderWithDelay[*http.Response](40 * time.Millisecond).WithMaxHedges(1).Build()
	resp, err := failsafe.With[*http.Response](hp).WithContext(ctx).Get(func() (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/authorizations", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		return c.hc.Plain.Do(req)
	})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var res ChargeResult
	return &res, json.NewDecoder(resp.Body).Decode(&res)
}

// Tokenize exchanges raw card details for a reusable token.
//
// heldout: hedgeidem — failsafehttp.NewRequest(POST without key, client, hedge policy).Do()
func (c *Client) Tokenize(ctx context.Context, pan, expiry, cvc string) (string, error) {
	body, err := json.Marshal(map[string]string{"number": pan, "exp": expiry, "cvc": cvc})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/tokens", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	hp := hedgepolicy.NewWithDelay[*http.Response](50 * time.Millisecond)
	resp, err := failsafehttp.NewRequest(req, c.hc.Plain, hp).Do()
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// Payout sends money from the merchant balance to a bank account.
//
// heldout: hedgeidem — POST without key through an *http.Client whose Transport is failsafehttp.NewRoundTripper with a hedge policy
func (c *Client) Payout(ctx context.Context, bankAccount string, amountMinor int64, currency string) error {
	hedged := &http.Client{
		Timeout:   10 * time.Second,
		Transport: failsafehttp.NewRoundTripper(http.DefaultTransport, hedgepolicy.NewWithDelay[*http.Response](200*time.Millisecond)),
	}
	body, err := json.Marshal(map[string]any{"destination": bankAccount, "amount": amountMinor, "currency": currency})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/payouts", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hedged.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("payout: %s", resp.Status)
	}
	return nil
}

// SearchPayments runs a payments search query.
//
// heldout: clean — POST through the same failsafehttp hedging transport, to a URL whose fmt.Sprintf format holds /search (mildly unsettled: the constant part comes from a Sprintf format, not a literal)
func (c *Client) SearchPayments(ctx context.Context, query string, limit int) ([]ChargeResult, error) {
	hedged := &http.Client{
		Timeout:   10 * time.Second,
		Transport: failsafehttp.NewRoundTripper(http.DefaultTransport, hedgepolicy.NewWithDelay[*http.Response](200*time.Millisecond)),
	}
	body, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		return nil, err
	}
	url := fmt.Sprintf("%s/v1/payments/search?limit=%d", c.base, limit)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hedged.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Data []ChargeResult `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out.Data, nil
}
