// Package driver declares the export drivers' interface.
package driver

import "context"

type Driver interface {
	Publish(ctx context.Context, topic string, msg []byte) error
}
