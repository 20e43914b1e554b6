// Package openai is a stub of openai-go's client for tests: every request
// of a service is retried MaxRetries (2) times after the first.
package openai

import (
	"context"

	"github.com/openai/openai-go/v3/option"
)

type Client struct {
	Options []option.RequestOption
	Chat    ChatService
}

func NewClient(opts ...option.RequestOption) (r Client) {
	r = Client{Options: opts}
	r.Chat = ChatService{Completions: ChatCompletionService{Options: opts}}
	return r
}

type ChatService struct {
	Completions ChatCompletionService
}

type ChatCompletionService struct {
	Options []option.RequestOption
}

type ChatCompletionNewParams struct{ Model string }

type ChatCompletion struct{ ID string }

func (r *ChatCompletionService) New(ctx context.Context, body ChatCompletionNewParams, opts ...option.RequestOption) (*ChatCompletion, error) {
	return &ChatCompletion{}, ctx.Err()
}
