// Package circuitbreaker is a stub of failsafe-go's circuitbreaker for
// tests.
package circuitbreaker

import (
	"errors"
	"time"

	failsafe "github.com/failsafe-go/failsafe-go"
)

// ErrOpen is what executions fail with while the breaker is open.
var ErrOpen = errors.New("circuit breaker open")

// CircuitBreaker stops executions while open.
type CircuitBreaker[R any] interface {
	failsafe.Policy[R]
}

// Builder builds a CircuitBreaker.
type Builder[R any] interface {
	WithFailureThreshold(n uint) Builder[R]
	WithDelay(d time.Duration) Builder[R]
	Build() CircuitBreaker[R]
}

type config[R any] struct{}

func (c *config[R]) WithFailureThreshold(uint) Builder[R] { return c }
func (c *config[R]) WithDelay(time.Duration) Builder[R]   { return c }
func (c *config[R]) Build() CircuitBreaker[R]             { return &breaker[R]{} }

type breaker[R any] struct{}

func (b *breaker[R]) ToExecutor(int, R) any { return nil }

func NewBuilder[R any]() Builder[R] { return &config[R]{} }

func NewWithDefaults[R any]() CircuitBreaker[R] { return &breaker[R]{} }
