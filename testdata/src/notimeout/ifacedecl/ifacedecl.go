// Package ifacedecl declares an interface and no implementation: its
// method carries no fact.
package ifacedecl

import "context"

type Store interface {
	Load(ctx context.Context, id string) error
}
