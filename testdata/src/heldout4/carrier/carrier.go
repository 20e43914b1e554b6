// Package carrier is the client for the carrier gateway, the service that
// fronts the partner carriers' rating, booking and tracking APIs.
package carrier

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
)

// ErrRateExpired is returned by Book when the quoted rate is no longer valid.
var ErrRateExpired = errors.New("carrier: rate expired")

// Quote is one carrier's offer for a shipment.
type Quote struct {
	ID          string    `json:"id"`
	Carrier     string    `json:"carrier"`
	Service     string    `json:"service"`
	PriceCents  int64     `json:"price_cents"`
	ValidUntil  time.Time `json:"valid_until"`
	TransitDays int       `json:"transit_days"`
}

// QuoteRequest asks for rates between two geocoded points.
type QuoteRequest struct {
	FromLat, FromLng float64
	ToLat, ToLng     float64
	WeightGrams      int64
}

// Booking is a confirmed carrier booking.
type Booking struct {
	ID         string `json:"id"`
	TrackingNo string `json:"tracking_no"`
	LabelURL   string `json:"label_url"`
}

// TrackEvent is one scan reported by a carrier.
type TrackEvent struct {
	Code     string    `json:"code"`
	Location string    `json:"location"`
	At       time.Time `json:"at"`
}

// Manifest is the end-of-day list of parcels handed to a carrier.
type Manifest struct {
	Depot    string   `json:"depot"`
	Carrier  string   `json:"carrier"`
	Bookings []string `json:"bookings"`
}

// PickupRequest schedules a courier collection at a depot.
type PickupRequest struct {
	Depot   string    `json:"depot"`
	Carrier string    `json:"carrier"`
	From    time.Time `json:"from"`
	To      time.Time `json:"to"`
}

// Info describes a carrier the gateway supports.
type Info struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Services []string `json:"services"`
}

// Client talks to the carrier gateway. Rating and booking go through a
// retrying HTTP client; tracking and labels use a plain one.
type Client struct {
	base    string
	token   string
	rc      *retryablehttp.Client
	hc      *http.Client
	mirrors []string
}

// NewClient returns a gateway client.
//
// heldout: clean — constructor, no loop
func NewClient(base, token string, labelMirrors []string) *Client {
	rc := retryablehttp.NewClient()
	rc.RetryWaitMin = 200 * time.Millisecond
	rc.RetryWaitMax = 3 * time.Second
	rc.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	return &Client{
		base:    base,
		token:   token,
		rc:      rc,
		hc:      &http.Client{Timeout: 5 * time.Second},
		mirrors: append([]string{base + "/v2/labels"}, labelMirrors...),
	}
}

// heldout: clean — decodes one response, no loop
func decode[T any](resp *http.Response) (T, error) {
	var v T
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusConflict {
		return v, ErrRateExpired
	}
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return v, fmt.Errorf("carrier: %s: %s", resp.Status, bytes.TrimSpace(b))
	}
	err := json.NewDecoder(resp.Body).Decode(&v)
	return v, err
}

// Quote asks every carrier for a rate.
//
// heldout: clean — one call through the retrying client, the only layer
func (c *Client) Quote(ctx context.Context, q QuoteRequest) ([]Quote, error) {
	body, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/quotes", body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.rc.Do(req)
	if err != nil {
		return nil, err
	}
	return decode[[]Quote](resp)
}

// Book books the quoted service. The gateway sometimes answers 502 while a
// carrier's booking API restarts; we give it three rounds.
//
// heldout: retrystack — nested: 3-attempt loop around rc.Do, which already retries 5 times
func (c *Client) Book(ctx context.Context, q Quote, shipmentID string) (*Booking, error) {
	body, err := json.Marshal(map[string]string{"quote_id": q.ID, "reference": shipmentID})
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/bookings", body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Idempotency-Key", shipmentID+"/"+q.ID)
		resp, err := c.rc.Do(req)
		if err == nil {
			b, derr := decode[Booking](resp)
			if derr == nil {
				return &b, nil
			}
			if errors.Is(derr, ErrRateExpired) {
				return nil, derr
			}
			err = derr
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 500 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("carrier: book %s: %w", shipmentID, lastErr)
}

// Cancel cancels a booking.
//
// heldout: retrystack — nested: retry-go with its default 10 attempts around rc.Post (5 attempts)
func (c *Client) Cancel(ctx context.Context, bookingID string) error {
	return retrygo.Do(func() error {
		resp, err := c.rc.Post(c.base+"/v2/bookings/"+bookingID+"/cancel", "application/json", nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return retrygo.Unrecoverable(fmt.Errorf("carrier: booking %s not found", bookingID))
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("carrier: cancel %s: %s", bookingID, resp.Status)
		}
		return nil
	}, retrygo.Context(ctx), retrygo.Delay(300*time.Millisecond), retrygo.LastErrorOnly(true))
}

// Track returns the scans the carrier has for a tracking number.
//
// heldout: clean — one request on the plain client, no loop
func (c *Client) Track(ctx context.Context, trackingNo string) ([]TrackEvent, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v2/tracking/"+trackingNo, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	return decode[[]TrackEvent](resp)
}

// Label downloads the label PDF, trying the gateway and then each CDN
// mirror once.
//
// heldout: clean — failover: a range over the mirrors, each tried once
func (c *Client) Label(ctx context.Context, bookingID string) ([]byte, error) {
	var lastErr error
	for _, m := range c.mirrors {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, m+"/"+bookingID+".pdf", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			lastErr = fmt.Errorf("carrier: label from %s: %s %v", m, resp.Status, err)
			continue
		}
		return b, nil
	}
	return nil, lastErr
}

// SubmitManifest sends the end-of-day manifest.
//
// heldout: retrystack — hot: goto loop re-sends the POST at once on error, nothing waits
func (c *Client) SubmitManifest(ctx context.Context, m Manifest) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tries := 0
send:
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/manifests", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		tries++
		if tries < 3 {
			goto send
		}
		return fmt.Errorf("carrier: manifest %s/%s: %w", m.Depot, m.Carrier, err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("carrier: manifest %s/%s: %s", m.Depot, m.Carrier, resp.Status)
	}
	return nil
}

// Carriers lists the carriers the gateway supports.
//
// heldout: clean — pagination through the retrying client; the loop goes round for the next page only
func (c *Client) Carriers(ctx context.Context) ([]Info, error) {
	type page struct {
		Items []Info `json:"items"`
		Next  int    `json:"next"`
	}
	var out []Info
	for n := 1; ; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		resp, err := c.rc.Get(fmt.Sprintf("%s/v2/carriers?page=%d", c.base, n))
		if err != nil {
			return nil, err
		}
		p, err := decode[page](resp)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Next == 0 {
			return out, nil
		}
		n = p.Next
	}
}

// SchedulePickup books a courier collection window at a depot.
//
// heldout: retrystack — nested: backoff/v4 WithMaxRetries(b, 2) (3 attempts) around rc.Do (5 attempts)
func (c *Client) SchedulePickup(ctx context.Context, p PickupRequest) (string, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	var id string
	op := func() error {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/pickups", body)
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.rc.Do(req)
		if err != nil {
			return err
		}
		out, err := decode[struct {
			ID string `json:"id"`
		}](resp)
		if err != nil {
			return err
		}
		id = out.ID
		return nil
	}
	b := backoff.WithMaxRetries(backoff.WithContext(backoff.NewExponentialBackOff(), ctx), 2)
	if err := backoff.Retry(op, b); err != nil {
		return "", err
	}
	return id, nil
}
