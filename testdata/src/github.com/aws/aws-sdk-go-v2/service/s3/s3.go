// Package s3 is a stub of the AWS SDK v2's S3 client.
package s3

import "context"

type Client struct{}
type GetObjectInput struct{ Bucket, Key *string }
type GetObjectOutput struct{}

func (c *Client) GetObject(ctx context.Context, in *GetObjectInput, optFns ...func(*Options)) (*GetObjectOutput, error) {
	return nil, nil
}

type Options struct{}

func (c *Client) Options() Options { return Options{} }
