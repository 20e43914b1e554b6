// Package retryablehttp is a stub of github.com/hashicorp/go-retryablehttp
// for tests.
package retryablehttp

import (
	"context"
	"net/http"
	"time"
)

type Request struct {
	*http.Request
}

func NewRequest(method, url string, rawBody any) (*Request, error) { return nil, nil }

func NewRequestWithContext(ctx context.Context, method, url string, rawBody any) (*Request, error) {
	return nil, nil
}

type Client struct {
	HTTPClient   *http.Client
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
}

func NewClient() *Client { return &Client{RetryMax: 4} }

func (c *Client) Do(req *Request) (*http.Response, error) { return nil, nil }
func (c *Client) Get(url string) (*http.Response, error)  { return nil, nil }
func (c *Client) Head(url string) (*http.Response, error) { return nil, nil }
func (c *Client) Post(url, bodyType string, body any) (*http.Response, error) {
	return nil, nil
}

// StandardClient returns an *http.Client whose transport retries.
func (c *Client) StandardClient() *http.Client { return &http.Client{} }
