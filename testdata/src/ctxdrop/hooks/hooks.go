// Package hooks declares a context-taking interface and implements it
// nowhere: what a call through it does is not known to its callers.
package hooks

import "context"

// Publisher is implemented by the program that wires the library up.
type Publisher interface {
	Publish(ctx context.Context, msg string) error
}
