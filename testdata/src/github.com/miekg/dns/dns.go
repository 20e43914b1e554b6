// Package dns is a stub of miekg/dns: a zero Client times out its dial,
// write and read on its own.
package dns

import (
	"context"
	"net"
	"time"
)

type Msg struct{}

type Client struct{ Timeout time.Duration }

func (c *Client) Exchange(m *Msg, address string) (*Msg, time.Duration, error) {
	return c.ExchangeContext(context.Background(), m, address)
}

func (c *Client) ExchangeContext(ctx context.Context, m *Msg, address string) (*Msg, time.Duration, error) {
	var d net.Dialer
	_, err := d.DialContext(ctx, "udp", address)
	return m, 0, err
}
