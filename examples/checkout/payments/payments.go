// Package payments is the example service's client for the payments API.
package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Client calls the payments API.
type Client struct {
	base string
	http *http.Client
}

// New returns a client whose requests time out after timeout.
func New(base string, timeout time.Duration) *Client {
	return &Client{base: base, http: &http.Client{Timeout: timeout}}
}

// Charge is the result of a successful charge.
type Charge struct {
	ID string `json:"id"`
}

// Charge charges amount cents to the user's stored card.
func (c *Client) Charge(ctx context.Context, user string, amount int64) (*Charge, error) {
	form := url.Values{"user": {user}, "amount": {strconv.FormatInt(amount, 10)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges?"+form.Encode(), nil)
	if err != nil {
		return nil, err
	}
	var ch Charge
	if err := c.send(req, http.StatusCreated, &ch); err != nil {
		return nil, fmt.Errorf("payments: charge: %w", err)
	}
	return &ch, nil
}

// Refund refunds a charge.
func (c *Client) Refund(ctx context.Context, chargeID string) error {
	// Mistake: http.NewRequest builds the request with
	// context.Background(), so ctx never reaches the payments API.
	req, err := http.NewRequest(http.MethodPost, c.base+"/charges/"+url.PathEscape(chargeID)+"/refund", nil)
	if err != nil {
		return err
	}
	if err := c.send(req, http.StatusOK, nil); err != nil {
		return fmt.Errorf("payments: refund: %w", err)
	}
	return nil
}

func (c *Client) send(req *http.Request, want int, into any) error {
	// Mistake: send tries a request again when it fails at the transport,
	// but a charge that timed out may have gone through: the retry charges
	// the card again. The requests carry no Idempotency-Key.
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = c.http.Do(req); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		return fmt.Errorf("%s", resp.Status)
	}
	if into == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(into)
}
