// Package acme hands certmagic the lifecycle context of its background
// certificate management: meant to outlive everything, so not reported;
// a one-shot obtain with no deadline still is.
package acme

import (
	"context"

	"github.com/caddyserver/certmagic"
)

func start(cfg *certmagic.Config) error {
	return cfg.ManageAsync(context.Background(), []string{"example.com"})
}

func obtain(cfg *certmagic.Config) error {
	return cfg.ObtainCertSync(context.Background(), "example.com") // want `context.Background\(\) reaches net.Dialer.DialContext`
}

// certificateManager is what the plugin holds; certmagic's Config is the
// implementation it can see, and keeps its context through it too.
type certificateManager interface {
	ManageAsync(ctx context.Context, domains []string) error
}

func startVia(cm certificateManager) error {
	return cm.ManageAsync(context.Background(), []string{"example.com"})
}
