package sdks

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Publish loops around franz-go's own retries, which by default go on
// until the record is delivered.
func Publish(ctx context.Context, r *kgo.Record) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers("kafka:9092"))
	if err != nil {
		return err
	}
	for range 3 {
		if err = cl.ProduceSync(ctx, r).FirstErr(); err == nil { // want `retry loop \(3 attempts\) wraps kgo.Client.ProduceSync \(unbounded\): attempts without bound per call; the client already retries`
			return nil
		}
		pause(ctx)
	}
	return err
}

// PublishCapped: the client tries each record twice.
func PublishCapped(ctx context.Context, r *kgo.Record) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers("kafka:9092"), kgo.RecordRetries(2))
	if err != nil {
		return err
	}
	for range 3 {
		if err = cl.ProduceSync(ctx, r).FirstErr(); err == nil { // want `retry loop \(3 attempts\) wraps kgo.Client.ProduceSync \(2 attempts\): up to 6 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}
