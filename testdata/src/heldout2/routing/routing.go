// Package routing is the client of the third-party routing provider
// (road-network routes, travel-time matrices).
package routing

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"heldout2/platform"
)

// Point is a WGS84 coordinate.
type Point struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// Route is the provider's best route between two points.
type Route struct {
	DistanceM int           `json:"distance_m"`
	Duration  time.Duration `json:"duration"`
	Polyline  string        `json:"polyline"`
}

// Client talks to the routing provider.
type Client struct {
	base    string
	key     string
	timeout time.Duration
	hc      *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithTimeout overrides the per-call timeout (default 3s).
// heldout: clean — functional option, no I/O
func WithTimeout(d time.Duration) Option {
	return func(c *Client) { c.timeout = d }
}

// New returns a client for the provider at base.
// heldout: clean — the client is built by platform.NewHTTPClient with a Timeout
func New(base, apiKey string, opts ...Option) *Client {
	c := &Client{base: base, key: apiKey, timeout: 3 * time.Second}
	for _, o := range opts {
		o(c)
	}
	c.hc = platform.NewHTTPClient(c.timeout)
	return c
}

// Route asks for the fastest route from -> to.
// heldout: clean — request carries the caller's ctx; client has a Timeout
func (c *Client) Route(ctx context.Context, from, to Point) (*Route, error) {
	q := url.Values{}
	q.Set("from", fmt.Sprintf("%f,%f", from.Lat, from.Lng))
	q.Set("to", fmt.Sprintf("%f,%f", to.Lat, to.Lng))
	q.Set("key", c.key)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v2/route?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("routing: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("routing: %s", resp.Status)
	}
	var r Route
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, fmt.Errorf("routing: decode: %w", err)
	}
	return &r, nil
}

// Matrix returns travel times from every origin to every destination.
// Dispatch uses it to rank the candidate drivers for a pickup.
// heldout: ctxdrop — the request is built with http.NewRequest while ctx is in scope, so the caller's deadline never reaches the provider
func (c *Client) Matrix(ctx context.Context, origins, dests []Point) ([][]time.Duration, error) {
	if len(origins) == 0 || len(dests) == 0 {
		return nil, nil
	}
	body, err := json.Marshal(map[string]any{"origins": origins, "destinations": dests})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, c.base+"/v2/matrix?key="+url.QueryEscape(c.key), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("routing matrix: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Seconds [][]float64 `json:"seconds"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("routing matrix: decode: %w", err)
	}
	m := make([][]time.Duration, len(out.Seconds))
	for i, row := range out.Seconds {
		m[i] = make([]time.Duration, len(row))
		for j, s := range row {
			m[i][j] = time.Duration(s * float64(time.Second))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// Geocode resolves a free-text address to a point.
// heldout: clean — the request from http.NewRequest is given ctx with WithContext before it is sent; client has a Timeout
func (c *Client) Geocode(ctx context.Context, address string) (Point, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/v2/geocode?q="+url.QueryEscape(address)+"&key="+url.QueryEscape(c.key), nil)
	if err != nil {
		return Point{}, err
	}
	req = req.WithContext(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return Point{}, fmt.Errorf("geocode: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Results []Point `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return Point{}, err
	}
	if len(out.Results) == 0 {
		return Point{}, fmt.Errorf("geocode: no match for %q", address)
	}
	return out.Results[0], nil
}

// Healthy reports whether the provider's status endpoint answers 200.
// heldout: clean — no context in scope and c.hc has a Timeout
func (c *Client) Healthy() bool {
	resp, err := c.hc.Get(c.base + "/status?key=" + url.QueryEscape(c.key))
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK && resp.Header.Get("X-Quota-Remaining") != strconv.Itoa(0)
}
