// Package hedgepolicy is a stub of failsafe-go's hedgepolicy for tests.
package hedgepolicy

import (
	"time"

	failsafe "github.com/failsafe-go/failsafe-go"
)

type HedgePolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	WithMaxHedges(maxHedges int) Builder[R]
	CancelIf(predicate func(R, error) bool) Builder[R]
	Build() HedgePolicy[R]
}

type config[R any] struct{}

func (c *config[R]) ToExecutor(policyIndex int, result R) any          { return nil }
func (c *config[R]) WithMaxHedges(maxHedges int) Builder[R]            { return c }
func (c *config[R]) CancelIf(predicate func(R, error) bool) Builder[R] { return c }
func (c *config[R]) Build() HedgePolicy[R]                             { return c }
func NewWithDelay[R any](delay time.Duration) HedgePolicy[R]           { return &config[R]{} }
func NewBuilderWithDelay[R any](delay time.Duration) Builder[R]        { return &config[R]{} }
