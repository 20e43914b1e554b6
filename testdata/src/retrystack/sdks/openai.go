package sdks

import (
	"context"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

func wait(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Complete loops 3 times around openai-go's own 3 attempts.
func Complete(ctx context.Context) (*openai.ChatCompletion, error) {
	client := openai.NewClient(option.WithAPIKey("k"))
	var err error
	for range 3 {
		var c *openai.ChatCompletion
		if c, err = client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "m"}); err == nil { // want `retry loop \(3 attempts\) wraps openai.ChatCompletionService.New \(3 attempts\): up to 9 attempts per call; the client already retries`
			return c, nil
		}
		wait(ctx)
	}
	return nil, err
}

// Assistant holds a client built with 5 retries.
type Assistant struct {
	ai openai.Client
}

func NewAssistant() *Assistant {
	return &Assistant{ai: openai.NewClient(option.WithMaxRetries(5))}
}

// Ask retries twice around the client's 6 attempts.
func (a *Assistant) Ask(ctx context.Context) error {
	var err error
	for range 2 {
		if _, err = a.ai.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{}); err == nil { // want `retry loop \(2 attempts\) wraps openai.ChatCompletionService.New \(6 attempts\): up to 12 attempts per call`
			return nil
		}
		wait(ctx)
	}
	return err
}

// Once turns the SDK's retries off for the request: one layer, no nest.
func (a *Assistant) Once(ctx context.Context) error {
	var err error
	for range 2 {
		if _, err = a.ai.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{}, option.WithMaxRetries(0)); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// NoRetries builds a client without retries.
func NoRetries(ctx context.Context) error {
	client := openai.NewClient(option.WithMaxRetries(0))
	var err error
	for range 2 {
		if _, err = client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{}); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}
