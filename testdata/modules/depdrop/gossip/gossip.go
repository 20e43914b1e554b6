// Package gossip stands in for a library that makes its own context
// inside, with no context-taking alternative.
package gossip

import "context"

func Join(peers []string) error { return join(context.Background(), peers) }

func join(ctx context.Context, peers []string) error { return ctx.Err() }
