// Package collector is an exporter built on the Collector's helpers, its
// push function sending through franz-go.
package collector

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"
	"go.opentelemetry.io/collector/exporter/exporterhelper"
)

type exporter[T any] struct {
	client *kgo.Client
}

func (e *exporter[T]) push(ctx context.Context, data string) error {
	return e.client.ProduceSync(ctx, &kgo.Record{Value: []byte(data)}).FirstErr()
}

func options(cfg exporterhelper.BackOffConfig) []exporterhelper.Option {
	return []exporterhelper.Option{
		exporterhelper.WithStart(func(context.Context) error { return nil }),
		exporterhelper.WithRetry(cfg),
	}
}

// NewTraces retries the push, which franz-go retries too.
func NewTraces(ctx context.Context, cl *kgo.Client, cfg exporterhelper.BackOffConfig) (exporterhelper.Traces, error) {
	exp := &exporter[string]{client: cl}
	return exporterhelper.NewTraces(ctx, nil, nil, exp.push, options(cfg)...) // want `exporterhelper.NewTraces \(unbounded\) wraps kgo.Client.ProduceSync \(unbounded\): attempts without bound per call; the client already retries`
}

// NewTracesNoRetry turns no retry sender on: a single layer.
func NewTracesNoRetry(ctx context.Context, cl *kgo.Client) (exporterhelper.Traces, error) {
	exp := &exporter[string]{client: cl}
	return exporterhelper.NewTraces(ctx, nil, nil, exp.push, exporterhelper.WithStart(func(context.Context) error { return nil }))
}
