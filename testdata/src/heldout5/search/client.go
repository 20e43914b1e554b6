// Package search is the client of the Elasticsearch cluster that indexes
// orders for the back office.
package search

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
	"github.com/resilvet/resilvet/runtime/hedge"
)

// Client talks to the cluster.
type Client struct {
	base    string
	http    *http.Client       // hedged transport for the query path
	bulk    *hedgedhttp.Client // hedged client of the ingest nodes
	suggest *http.Client       // resilvet's hedge.Transport
	clicks  *http.Client       // analytics, through hedgedhttp with a single copy
}

// NewClient returns a client of the cluster at base.
//
// heldout: clean — builds hedged transports and clients, sends nothing
func NewClient(base string) (*Client, error) {
	rt, err := hedgedhttp.NewRoundTripper(100*time.Millisecond, 3, http.DefaultTransport)
	if err != nil {
		return nil, err
	}
	bulk, err := hedgedhttp.New(hedgedhttp.Config{Transport: http.DefaultTransport, Upto: 2, Delay: 500 * time.Millisecond})
	if err != nil {
		return nil, err
	}
	clicks, err := hedgedhttp.NewClient(time.Second, 1, &http.Client{Timeout: 3 * time.Second})
	if err != nil {
		return nil, err
	}
	return &Client{
		base:    base,
		http:    &http.Client{Transport: rt, Timeout: 5 * time.Second},
		bulk:    bulk,
		suggest: &http.Client{Transport: &hedge.Transport{Base: http.DefaultTransport}, Timeout: 2 * time.Second},
		clicks:  clicks,
	}, nil
}

// Query runs a search on an index and returns the raw answer.
//
// heldout: clean — hedged POST to /_search, a search endpoint
func (c *Client) Query(ctx context.Context, index string, query []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/"+index+"/_search", bytes.NewReader(query))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("search %s: %s", index, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// Index stores an order document under its id.
//
// heldout: clean — hedged PUT
func (c *Client) Index(ctx context.Context, id string, doc []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/orders/_doc/"+id, bytes.NewReader(doc))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("index %s: %s", id, resp.Status)
	}
	return nil
}

// Delete removes an order document.
//
// heldout: clean — hedged DELETE
func (c *Client) Delete(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.base+"/orders/_doc/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("delete %s: %s", id, resp.Status)
	}
	return nil
}

// BumpViews adds one to the view counter of every order matching query.
//
// heldout: hedgeidem — hedged POST to /orders/_update_by_query (a script incrementing a counter); "_update_by_query" holds none of the search endpoints the doc lists (no "/query")
func (c *Client) BumpViews(ctx context.Context, query []byte) error {
	body := append([]byte(`{"script":{"source":"ctx._source.views += 1"},"query":`), query...)
	body = append(body, '}')
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders/_update_by_query?conflicts=proceed", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("update by query: %s", resp.Status)
	}
	return nil
}

// Bulk sends a bulk request of NDJSON actions to the ingest nodes.
//
// heldout: hedgeidem — POST /_bulk through c.bulk, a *hedgedhttp.Client from New(Config{Upto: 2}) in a field the package alone writes
func (c *Client) Bulk(ctx context.Context, ndjson []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/_bulk", bytes.NewReader(ndjson))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := c.bulk.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("bulk: %s", resp.Status)
	}
	return nil
}

// Suggest returns completion suggestions for the back office's search
// box.
//
// heldout: clean — POST through hedge.Transport, which hedges only idempotent requests: no finding
func (c *Client) Suggest(ctx context.Context, prefix []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders/_completion", bytes.NewReader(prefix))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.suggest.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// RecordClick stores a search result click for relevance tuning.
//
// heldout: clean — unsettled by the doc: POST without a key through hedgedhttp.NewClient with upto 1, a "hedge" of one copy; the doc's one-attempt rule is stated for retry layers only, but one copy cannot take effect twice
func (c *Client) RecordClick(ctx context.Context, queryID, docID string, position int) error {
	body := fmt.Sprintf(`{"query_id":%q,"doc_id":%q,"position":%d}`, queryID, docID, position)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/analytics/clicks", bytes.NewReader([]byte(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.clicks.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}
