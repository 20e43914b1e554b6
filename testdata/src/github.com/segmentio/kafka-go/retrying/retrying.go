// Package retrying sits below kafka-go: the library's own calls of its
// API are its protocol, not its users' effects, and hedgeidem is silent.
package retrying

import (
	"context"
	"time"

	kafka "github.com/segmentio/kafka-go"
)

func WriteAll(ctx context.Context, w *kafka.Writer, msgs []kafka.Message) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = w.WriteMessages(ctx, msgs...); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
