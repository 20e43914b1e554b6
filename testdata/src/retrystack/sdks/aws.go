package sdks

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// getTwice loops twice around a read with a client built elsewhere: the
// SDK's default stands.
func getTwice(ctx context.Context, c *s3.Client, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(3 attempts\): up to 6 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// FromConfigCount: the shared config sets 5 attempts.
func FromConfigCount(ctx context.Context, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(5))
	if err != nil {
		return nil, err
	}
	c := s3.NewFromConfig(cfg)
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(5 attempts\): up to 10 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// FromConfigRetryer: the shared config's retryer makes 4.
func FromConfigRetryer(ctx context.Context, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
		return retry.AddWithMaxAttempts(retry.NewStandard(), 4)
	}))
	if err != nil {
		return nil, err
	}
	c := s3.NewFromConfig(cfg)
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(4 attempts\): up to 8 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// StandardOptions: the standard retryer told to make 6.
func StandardOptions(ctx context.Context, cfg aws.Config, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	c := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) { so.MaxAttempts = 6 })
	})
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(6 attempts\): up to 12 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// NopClient: a client whose retryer makes one attempt is no layer.
func NopClient(ctx context.Context, cfg aws.Config, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	c := s3.NewFromConfig(cfg, func(o *s3.Options) { o.Retryer = aws.NopRetryer{} })
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil {
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// OnceForTheCall: the call's own option turns the retries off.
func OnceForTheCall(ctx context.Context, cfg aws.Config, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	c := s3.NewFromConfig(cfg)
	for range 2 {
		if out, err = c.GetObject(ctx, in, func(o *s3.Options) { o.RetryMaxAttempts = 1 }); err == nil {
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// FromOptions: a client built from an options literal.
func FromOptions(ctx context.Context, in *s3.GetObjectInput) (out *s3.GetObjectOutput, err error) {
	c := s3.New(s3.Options{Region: "eu-west-1", RetryMaxAttempts: 4})
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(4 attempts\): up to 8 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// Unseen: option functions handed in may set anything.
func Unseen(ctx context.Context, cfg aws.Config, in *s3.GetObjectInput, optFns ...func(*s3.Options)) (out *s3.GetObjectOutput, err error) {
	c := s3.NewFromConfig(cfg, optFns...)
	for range 2 {
		if out, err = c.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(attempts set at run time\)`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// Elsewhere hands a client to a function that retries with it.
func Elsewhere(ctx context.Context, cfg aws.Config, in *s3.GetObjectInput) (*s3.GetObjectOutput, error) {
	return getTwice(ctx, s3.NewFromConfig(cfg), in)
}
