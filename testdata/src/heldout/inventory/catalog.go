package inventory

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"

	"example.com/kv"
	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/nats-io/nats.go"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"heldout/internal/httpx"
)

type Product struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	SKU   string `json:"sku"`
	Price int64  `json:"price"`
}

// Catalog serves product data from Mongo, search from Elasticsearch and
// prices from the shared KV cache.
type Catalog struct {
	products *mongo.Collection
	es       esapi.Transport
	kv       *kv.Client
	nc       *nats.Conn
	recent   *memo
}

// heldout: clean — constructor
func NewCatalog(products *mongo.Collection, es esapi.Transport, kvc *kv.Client, nc *nats.Conn) *Catalog {
	return &Catalog{products: products, es: es, kv: kvc, nc: nc, recent: &memo{m: map[string]Product{}}}
}

// heldout: clean — FindOne with the caller's ctx
func (c *Catalog) Product(ctx context.Context, id string) (*Product, error) {
	if p, ok := c.recent.Get(context.Background(), id); ok {
		return &p, nil
	}
	res := c.products.FindOne(ctx, map[string]any{"_id": id})
	if res == nil {
		return nil, fmt.Errorf("product %s not found", id)
	}
	p := Product{ID: id}
	c.recent.Put(id, p)
	return &p, nil
}

// heldout: ctxdrop — FindOne(context.TODO()) while ctx is in scope
func (c *Catalog) ProductName(ctx context.Context, id string) (string, error) {
	if p, ok := c.recent.Get(ctx, id); ok {
		return p.Name, nil
	}
	res := c.products.FindOne(context.TODO(), map[string]any{"_id": id})
	if res == nil {
		return "", fmt.Errorf("product %s not found", id)
	}
	return id, nil
}

// heldout: clean — search request with the caller's ctx
func (c *Catalog) Search(ctx context.Context, q string) (*esapi.Response, error) {
	return esapi.SearchRequest{Index: []string{"products"}}.Do(ctx, c.es)
}

// WarmLoop re-runs the most frequent searches so the search cluster keeps
// them cached.
//
// heldout: notimeout — search requests on context.Background() every 5 minutes: nothing bounds them
func (c *Catalog) WarmLoop(stop <-chan struct{}, queries []string) {
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		for _, q := range queries {
			if _, err := (esapi.SearchRequest{Index: []string{"products"}}).Do(context.Background(), c.es); err != nil {
				log.Printf("warm %q: %v", q, err)
			}
		}
	}
}

// heldout: ctxdrop — kv Client.Get ignores ctx where GetContext exists
func (c *Catalog) CachedPrice(ctx context.Context, sku string) (int64, bool) {
	if ctx.Err() != nil {
		return 0, false
	}
	v, err := c.kv.Get("price:" + sku)
	if err != nil || v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// CheckImages returns the product image URLs that no longer resolve.
//
// heldout: notimeout — http.Head on http.DefaultClient (no Timeout) for every image
func (c *Catalog) CheckImages(urls []string) []string {
	var broken []string
	for _, u := range urls {
		resp, err := http.Head(u)
		if err != nil {
			broken = append(broken, u)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 {
			broken = append(broken, u)
		}
	}
	return broken
}

// heldout: clean — NATS request with an explicit 2s timeout, no ctx in scope
func (c *Catalog) QuotePricing(sku string) error {
	_, err := c.nc.Request("pricing.quote", []byte(sku), 2*time.Second)
	return err
}

// heldout: clean — handler passes r.Context() on (the defects are inside ProductName and CachedPrice)
func (c *Catalog) ServeProduct(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	name, err := c.ProductName(r.Context(), id)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	price, _ := c.CachedPrice(r.Context(), id)
	httpx.WriteJSON(w, http.StatusOK, Product{ID: id, Name: name, Price: price})
}

// memo is a small in-process cache of recently viewed products.
type memo struct {
	mu sync.Mutex
	m  map[string]Product
}

// heldout: clean — in-process map read; the ctx is ignored
func (m *memo) Get(_ context.Context, id string) (Product, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.m[id]
	return p, ok
}

// heldout: clean — in-process map write
func (m *memo) Put(id string, p Product) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) > 1000 {
		m.m = map[string]Product{}
	}
	m.m[id] = p
}
