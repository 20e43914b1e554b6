package sdks

import (
	"context"
	"time"

	secretmanager "cloud.google.com/go/secretmanager/apiv1"
	gax "github.com/googleapis/gax-go/v2"
)

// GetSecret loops around a method the client retries by its default
// call options, until the call's deadline.
func GetSecret(ctx context.Context, c *secretmanager.Client) (*secretmanager.Secret, error) {
	var err error
	for range 3 {
		var s *secretmanager.Secret
		if s, err = c.GetSecret(ctx, &secretmanager.GetSecretRequest{Name: "n"}); err == nil { // want `retry loop \(3 attempts\) wraps secretmanager.Client.GetSecret \(unbounded\): attempts without bound per call; the client already retries`
			return s, nil
		}
		wait(ctx)
	}
	return nil, err
}

// AddVersion: the method's defaults do not retry (the REST defaults,
// which do, are read only without others): a single layer.
func AddVersion(ctx context.Context, c *secretmanager.Client) error {
	var err error
	for range 3 {
		if _, err = c.AddSecretVersion(ctx, &secretmanager.AddSecretVersionRequest{Parent: "p"}); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// GetSecretOnce turns the client's retries off for the call.
func GetSecretOnce(ctx context.Context, c *secretmanager.Client) error {
	var err error
	for range 3 {
		if _, err = c.GetSecret(ctx, &secretmanager.GetSecretRequest{Name: "n"}, gax.WithRetry(func() gax.Retryer { return nil })); err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// AddVersionRetried turns retries on for the call.
func AddVersionRetried(ctx context.Context, c *secretmanager.Client) error {
	var err error
	for range 3 {
		_, err = c.AddSecretVersion(ctx, &secretmanager.AddSecretVersionRequest{Parent: "p"}, gax.WithRetry(func() gax.Retryer { // want `retry loop \(3 attempts\) wraps secretmanager.Client.AddSecretVersion \(unbounded\)`
			return gax.OnCodes([]gax.Code{14}, gax.Backoff{})
		}))
		if err == nil {
			return nil
		}
		wait(ctx)
	}
	return err
}

// ListAll pages through an iterator: no retry loop.
func ListAll(ctx context.Context, c *secretmanager.Client) error {
	it := c.ListSecrets(ctx, &secretmanager.ListSecretsRequest{Parent: "p"})
	for {
		if _, err := it.Next(); err != nil {
			return err
		}
	}
}

// SleepAround sleeps without its context between retries of a client
// call: a finding of its own, beside the nest.
func SleepAround(ctx context.Context, c *secretmanager.Client) error {
	var err error
	for range 2 {
		if _, err = c.AddSecretVersion(ctx, &secretmanager.AddSecretVersionRequest{Parent: "p"}); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second) // want `retry loop around secretmanager.Client.AddSecretVersion sleeps without its context`
	}
	return err
}
