// Package nats is a stub of the NATS client.
package nats

import (
	"context"
	"time"
)

type Conn struct{}
type Msg struct{}

func (nc *Conn) Request(subj string, data []byte, timeout time.Duration) (*Msg, error) {
	return nil, nil
}

func (nc *Conn) RequestWithContext(ctx context.Context, subj string, data []byte) (*Msg, error) {
	return nil, nil
}
