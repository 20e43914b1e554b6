// Package otelwork hands root contexts to OpenTelemetry and OpenCensus: metric
// instruments and spans read the context for its values, never for a
// deadline.
package otelwork

import (
	"context"
	"net/http"

	"go.opencensus.io/stats"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

var (
	hits    metric.Int64Counter
	latency metric.Float64Histogram
	tracer  trace.Tracer
)

// counter is a generic helper's constraint: its method takes the metric
// API's options, so it records a measurement.
type counter interface {
	Add(context.Context, int64, ...metric.AddOption)
}

func add[T counter](ctx context.Context, m T, v int64) { m.Add(ctx, v) }

// inc records a metric with the context it is given: it ignores it.
func inc(ctx context.Context) { hits.Add(ctx, 1) }

// hash starts a span and does in-memory work: the context is used for the
// span alone.
func hash(ctx context.Context, s string) int {
	ctx, span := tracer.Start(ctx, "hash")
	defer span.End()
	inc(ctx)
	return len(s)
}

// fetch starts a span and sends the request with the derived context.
func fetch(ctx context.Context, url string) error {
	ctx, span := tracer.Start(ctx, "fetch")
	defer span.End()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Handle(ctx context.Context) error {
	latency.Record(context.Background(), 1)             // ok: a metric reads values only
	stats.Record(context.Background())                  // ok: OpenCensus reads the tags only
	_ = stats.RecordWithTags(context.Background(), nil) // ok
	inc(context.Background())                           // ok: inc only records a metric
	_ = hash(context.Background(), "schema")            // ok: the context serves a span only
	return fetch(context.Background(), "http://x")      // want `context.Background\(\) passed to otelwork.fetch while ctx is available`
}
