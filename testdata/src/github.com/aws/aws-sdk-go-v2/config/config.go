// Package config is a stub of aws-sdk-go-v2's config: LoadDefaultConfig
// reads the environment and shared files, and may ask a resolver the
// program configured; credentials are fetched later, with each request's
// context.
package config

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type LoadOptions struct {
	Region           string
	Resolver         func(ctx context.Context) (string, error)
	RetryMaxAttempts int
	Retryer          func() aws.Retryer
}

func WithRetryMaxAttempts(n int) func(*LoadOptions) error {
	return func(o *LoadOptions) error { o.RetryMaxAttempts = n; return nil }
}

func WithRetryer(fn func() aws.Retryer) func(*LoadOptions) error {
	return func(o *LoadOptions) error { o.Retryer = fn; return nil }
}

func WithRegion(r string) func(*LoadOptions) error {
	return func(o *LoadOptions) error { o.Region = r; return nil }
}

func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (aws.Config, error) {
	var o LoadOptions
	for _, f := range optFns {
		if err := f(&o); err != nil {
			return aws.Config{}, err
		}
	}
	if o.Region == "" && o.Resolver != nil {
		r, err := o.Resolver(ctx)
		if err != nil {
			return aws.Config{}, err
		}
		o.Region = r
	}
	if o.Region == "" {
		o.Region = os.Getenv("AWS_REGION")
	}
	return aws.Config{Region: o.Region, RetryMaxAttempts: o.RetryMaxAttempts, Retryer: o.Retryer}, nil
}
