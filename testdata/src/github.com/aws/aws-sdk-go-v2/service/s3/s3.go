// Package s3 is a stub of the AWS SDK v2's S3 client.
package s3

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type Client struct{ options Options }

func New(o Options, optFns ...func(*Options)) *Client {
	for _, f := range optFns {
		f(&o)
	}
	return &Client{options: o}
}

func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client {
	return New(Options{Region: cfg.Region, RetryMaxAttempts: cfg.RetryMaxAttempts}, optFns...)
}

type GetObjectInput struct{ Bucket, Key *string }
type GetObjectOutput struct{}

func (c *Client) GetObject(ctx context.Context, in *GetObjectInput, optFns ...func(*Options)) (*GetObjectOutput, error) {
	return nil, nil
}

type Options struct {
	Region           string
	RetryMaxAttempts int
	Retryer          aws.Retryer
}

func (c *Client) Options() Options { return c.options }
