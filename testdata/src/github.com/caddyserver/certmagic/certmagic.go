// Package certmagic is a stub of certmagic: the signatures resilvet's
// tables name, and an outbound call the way the real one makes them.
package certmagic

import (
	"context"
	"net"
)

type Config struct{}

// ManageAsync manages certificates in the background for as long as ctx
// lives.
func (cfg *Config) ManageAsync(ctx context.Context, domains []string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", "acme.example.com:443")
	return err
}

// ObtainCertSync obtains one certificate now.
func (cfg *Config) ObtainCertSync(ctx context.Context, name string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", "acme.example.com:443")
	return err
}
