// Package declared hedges with the runtime's hedge package, which makes
// callers declare the operation idempotent.
package declared

import (
	"context"
	"net/http"

	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/segmentio/kafka-go"
)

type Publisher struct {
	w *kafka.Writer
	p *hedge.Policy
}

func (p *Publisher) Publish(ctx context.Context, v []byte) error {
	_, err := hedge.Do(ctx, p.p, hedge.Idempotent(func(ctx context.Context) (struct{}, error) { // want `hedge.Idempotent declares idempotent an operation that publishes a message with kafka.Writer.WriteMessages \(declared.go:20\), so hedged copies may each take effect; give the message an id its consumers deduplicate on, or do not hedge it`
		return struct{}{}, p.w.WriteMessages(ctx, kafka.Message{Value: v})
	}))
	return err
}

func (p *Publisher) Fetch(ctx context.Context, url string) (*http.Response, error) {
	return hedge.Do(ctx, p.p, hedge.Idempotent(func(ctx context.Context) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		return http.DefaultClient.Do(req)
	}))
}

func (p *Publisher) Keyed(ctx context.Context, url, key string) (*http.Response, error) {
	return hedge.Do(ctx, p.p, hedge.Idempotent(func(ctx context.Context) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set(hedge.IdempotencyKeyHeader, key)
		return http.DefaultClient.Do(req)
	}))
}

// ViaTransport sends through the runtime's hedging transport, which hedges
// only requests HTTP lets it send twice: a POST without a key goes once.
func ViaTransport(ctx context.Context, url string) error {
	c := &http.Client{Transport: &hedge.Transport{Base: http.DefaultTransport}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := c.Do(req)
	return err
}
