// Package awsconfig builds AWS clients at construction: loading the
// configuration reads the environment and shared files, so a root
// context there drops nothing.
package awsconfig

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/config"
)

type kv struct{ region string }

// newKV loads the configuration with its own context.
func newKV(region string) (*kv, error) {
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion(region))
	if err != nil {
		return nil, err
	}
	return &kv{region: cfg.Region}, nil
}

// probe fetches with its own context.
func probe(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Start(ctx context.Context, region string) error {
	if _, err := newKV(region); err != nil { // ok: configuration is loaded locally
		return err
	}
	if _, err := config.LoadDefaultConfig(context.Background()); err != nil { // ok
		return err
	}
	return probe("http://x") // want `call to awsconfig.probe drops the caller's context`
}
