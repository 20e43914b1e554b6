// Package redis is a stub of github.com/redis/go-redis/v9 for tests. As in
// the real package, a Client's commands are methods of the cmdable func
// type it embeds.
package redis

import (
	"context"
	"time"
)

type Options struct {
	Addr        string
	MaxRetries  int
	DialTimeout time.Duration
}

type Cmder interface{ Err() error }

type StringCmd struct{}

func (c *StringCmd) Result() (string, error) { return "", nil }
func (c *StringCmd) Err() error              { return nil }

type StatusCmd struct{}

func (c *StatusCmd) Result() (string, error) { return "", nil }
func (c *StatusCmd) Err() error              { return nil }

type IntCmd struct{}

func (c *IntCmd) Result() (int64, error) { return 0, nil }
func (c *IntCmd) Err() error             { return nil }

type Cmdable interface {
	Get(ctx context.Context, key string) *StringCmd
	Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd
	Incr(ctx context.Context, key string) *IntCmd
	Ping(ctx context.Context) *StatusCmd
}

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Get(ctx context.Context, key string) *StringCmd { return &StringCmd{} }
func (c cmdable) Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c cmdable) Ping(ctx context.Context) *StatusCmd          { return &StatusCmd{} }

type baseClient struct{ opt *Options }

func (c *baseClient) Close() error { return nil }

type Client struct {
	*baseClient
	cmdable
}

func NewClient(opt *Options) *Client {
	c := Client{baseClient: &baseClient{opt: opt}}
	c.cmdable = c.Process
	return &c
}

func (c *Client) Process(ctx context.Context, cmd Cmder) error { return nil }
func (c *Client) Options() *Options                            { return c.opt }
