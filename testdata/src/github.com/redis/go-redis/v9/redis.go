// Package redis is a stub of github.com/redis/go-redis/v9 for tests.
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
}

type Client struct{ opt *Options }

func NewClient(opt *Options) *Client { return &Client{opt: opt} }

func (c *Client) Get(ctx context.Context, key string) *StringCmd { return &StringCmd{} }
func (c *Client) Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c *Client) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c *Client) Ping(ctx context.Context) *StatusCmd          { return &StatusCmd{} }
func (c *Client) Close() error                                 { return nil }
func (c *Client) Options() *Options                            { return c.opt }
