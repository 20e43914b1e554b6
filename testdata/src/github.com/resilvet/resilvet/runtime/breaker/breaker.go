// Package breaker is a stub of resilvet's runtime breaker package for
// tests.
package breaker

import (
	"context"
	"errors"
)

var ErrOpen = errors.New("breaker: circuit open")

type Breaker struct{}

func New(name string) *Breaker { return &Breaker{} }

func (b *Breaker) Do(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }
