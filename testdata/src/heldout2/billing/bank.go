// Package billing runs driver payouts: the payout job, its scheduler, the
// ledger and the bank client.
package billing

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"heldout2/platform"
)

// Transfer is one payout to a driver's bank account.
type Transfer struct {
	IdempotencyKey string `json:"-"`
	IBAN           string `json:"iban"`
	AmountCents    int64  `json:"amount_cents"`
	Currency       string `json:"currency"`
	Reference      string `json:"reference"`
}

// Bank moves money.
type Bank interface {
	Transfer(ctx context.Context, t Transfer) (ref string, err error)
}

type bankClient struct {
	base  string
	token string
	hc    *http.Client
}

// NewBankClient returns the client of the payout bank's API.
// heldout: clean — client built with a 20s Timeout, no I/O
func NewBankClient(base, token string) Bank {
	return &bankClient{base: base, token: token, hc: &http.Client{Timeout: 20 * time.Second}}
}

// Transfer submits a transfer; the idempotency key makes retries safe.
// heldout: clean — caller's ctx, client with Timeout, retries bounded by ctx
func (b *bankClient) Transfer(ctx context.Context, t Transfer) (string, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	var ref string
	err = platform.Retry(ctx, 3, 500*time.Millisecond, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/v3/transfers", bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("%w: %v", platform.ErrPermanent, err)
		}
		req.Header.Set("Authorization", "Bearer "+b.token)
		req.Header.Set("Idempotency-Key", t.IdempotencyKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := b.hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK:
			var out struct {
				Ref string `json:"reference"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				return err
			}
			ref = out.Ref
			return nil
		case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("bank: %s", resp.Status)
		default:
			return fmt.Errorf("%w: bank: %s", platform.ErrPermanent, resp.Status)
		}
	})
	return ref, err
}

// CertExpiry reports when the bank API's TLS certificate expires; the
// certificate-watch cron alerts two weeks ahead.
// heldout: notimeout — tls.Dial has no timeout and there is no context to bound it
func CertExpiry(base string) (time.Time, error) {
	u, err := url.Parse(base)
	if err != nil {
		return time.Time{}, err
	}
	conn, err := tls.Dial("tcp", u.Hostname()+":443", &tls.Config{ServerName: u.Hostname()})
	if err != nil {
		return time.Time{}, err
	}
	defer conn.Close()
	certs := conn.ConnectionState().PeerCertificates
	if len(certs) == 0 {
		return time.Time{}, errors.New("bank presented no certificate")
	}
	return certs[0].NotAfter, nil
}
