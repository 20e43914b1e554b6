// Package inventory is the client of the inventory service and the
// background jobs that keep our stock view fresh.
package inventory

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"sync"
	"time"

	"heldout/internal/httpx"
)

// Client calls the inventory service.
type Client struct {
	base string
	hc   httpx.Doer
}

type Item struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

// heldout: clean — the Doer is a client with a 3s Timeout built by httpx.NewClient; no call
func NewClient(base string) *Client {
	return &Client{base: base, hc: httpx.NewClient(3 * time.Second)}
}

// heldout: clean — forwards the caller's ctx
func (c *Client) Reserve(ctx context.Context, sku string, qty int) error {
	return httpx.PostJSON(ctx, c.hc, c.base+"/v1/reservations", Item{SKU: sku, Qty: qty}, nil)
}

// heldout: clean — request made with the caller's ctx
func (c *Client) Price(ctx context.Context, sku string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/prices/"+url.PathEscape(sku), nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer httpx.DrainAndClose(resp)
	var p struct {
		AmountCt int64 `json:"amount"`
	}
	if resp.StatusCode/100 != 2 {
		return 0, fmt.Errorf("price %s: %s", sku, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return 0, err
	}
	return p.AmountCt, nil
}

// heldout: clean — http.NewRequest, but the request is given ctx with WithContext before it is sent
func (c *Client) Release(ctx context.Context, sku string, qty int) error {
	req, err := http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/v1/reservations/%s?qty=%d", c.base, url.PathEscape(sku), qty), nil)
	if err != nil {
		return err
	}
	req = req.WithContext(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	httpx.DrainAndClose(resp)
	return nil
}

// ReleaseAll gives back the reservations of a cancelled order, retrying
// each line.
//
// heldout: ctxdrop — inside the retry callback it calls Release with context.Background() instead of the ctx the callback is given
func (c *Client) ReleaseAll(ctx context.Context, items []Item) error {
	for _, it := range items {
		err := httpx.Retry(ctx, 3, func(ctx context.Context) error {
			return c.Release(context.Background(), it.SKU, it.Qty)
		})
		if err != nil {
			return fmt.Errorf("release %s: %w", it.SKU, err)
		}
	}
	return nil
}

// ReserveAll reserves every line of an order in parallel.
//
// heldout: ctxdrop — the goroutines it waits for call Reserve with context.Background() while ctx is in scope
func (c *Client) ReserveAll(ctx context.Context, items []Item) error {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for _, it := range items {
		wg.Add(1)
		go func(it Item) {
			defer wg.Done()
			if err := c.Reserve(context.Background(), it.SKU, it.Qty); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}(it)
	}
	wg.Wait()
	if firstErr != nil {
		log.Printf("reserve %d items: %v", len(items), firstErr)
	}
	return firstErr
}
