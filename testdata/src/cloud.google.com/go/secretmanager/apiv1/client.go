// Package secretmanager is a stub of a Google Cloud generated client:
// per-method default call options, some with retries.
package secretmanager

import (
	"context"
	"time"

	gax "github.com/googleapis/gax-go/v2"
)

type GetSecretRequest struct{ Name string }
type AddSecretVersionRequest struct{ Parent string }
type ListSecretsRequest struct{ Parent string }
type Secret struct{ Name string }
type SecretVersion struct{ Name string }
type SecretIterator struct{}

func (it *SecretIterator) Next() (*Secret, error) { return nil, nil }

type CallOptions struct {
	GetSecret        []gax.CallOption
	AddSecretVersion []gax.CallOption
	ListSecrets      []gax.CallOption
}

func defaultCallOptions() *CallOptions {
	return &CallOptions{
		GetSecret: []gax.CallOption{
			gax.WithTimeout(60000 * time.Millisecond),
			gax.WithRetry(func() gax.Retryer {
				return gax.OnCodes([]gax.Code{14}, gax.Backoff{Initial: 100 * time.Millisecond})
			}),
		},
		AddSecretVersion: []gax.CallOption{
			gax.WithTimeout(60000 * time.Millisecond),
		},
		ListSecrets: []gax.CallOption{
			gax.WithRetry(func() gax.Retryer {
				return gax.OnCodes([]gax.Code{14}, gax.Backoff{})
			}),
		},
	}
}

func defaultRESTCallOptions() *CallOptions {
	return &CallOptions{
		AddSecretVersion: []gax.CallOption{
			gax.WithRetry(func() gax.Retryer { return gax.OnCodes(nil, gax.Backoff{}) }),
		},
	}
}

type internalClient interface {
	// The client has the same methods: the interface's claims are its.
	GetSecret(context.Context, *GetSecretRequest, ...gax.CallOption) (*Secret, error)                      // want GetSecret:`^retries\(x∞: secretmanager.Client.GetSecret x∞\) outbound$`
	AddSecretVersion(context.Context, *AddSecretVersionRequest, ...gax.CallOption) (*SecretVersion, error) // want AddSecretVersion:`^outbound$`
	ListSecrets(context.Context, *ListSecretsRequest, ...gax.CallOption) *SecretIterator
}

type Client struct {
	internalClient internalClient
	CallOptions    *CallOptions
}

func NewClient(ctx context.Context) (*Client, error) { // want NewClient:`^ignoresCtx$`
	return &Client{CallOptions: defaultCallOptions()}, nil
}

// GetSecret is retried by its defaults.
func (c *Client) GetSecret(ctx context.Context, req *GetSecretRequest, opts ...gax.CallOption) (*Secret, error) { // want GetSecret:`^retries\(x∞: secretmanager.Client.GetSecret x∞\) outbound$`
	return c.internalClient.GetSecret(ctx, req, opts...)
}

// AddSecretVersion is not: a write.
func (c *Client) AddSecretVersion(ctx context.Context, req *AddSecretVersionRequest, opts ...gax.CallOption) (*SecretVersion, error) { // want AddSecretVersion:`^effects\(grpc:secretmanager.internalClient.AddSecretVersion\) outbound$`
	return c.internalClient.AddSecretVersion(ctx, req, opts...)
}

// ListSecrets returns an iterator, whose Next makes the calls.
func (c *Client) ListSecrets(ctx context.Context, req *ListSecretsRequest, opts ...gax.CallOption) *SecretIterator {
	return c.internalClient.ListSecrets(ctx, req, opts...)
}
