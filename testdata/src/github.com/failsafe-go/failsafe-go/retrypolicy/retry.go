// Package retrypolicy is a stub of failsafe-go's retrypolicy for tests.
package retrypolicy

import (
	"time"

	failsafe "github.com/failsafe-go/failsafe-go"
)

// RetryPolicy retries failed executions.
type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

// Builder builds a RetryPolicy.
type Builder[R any] interface {
	WithMaxAttempts(maxAttempts int) Builder[R]
	WithMaxRetries(maxRetries int) Builder[R]
	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]
	AbortOnErrors(errs ...error) Builder[R]
	HandleErrors(errs ...error) Builder[R]
	Build() RetryPolicy[R]
}

type config[R any] struct{ maxRetries int }

func (c *config[R]) WithMaxAttempts(n int) Builder[R]                        { c.maxRetries = n - 1; return c }
func (c *config[R]) WithMaxRetries(n int) Builder[R]                         { c.maxRetries = n; return c }
func (c *config[R]) WithBackoff(d time.Duration, m time.Duration) Builder[R] { return c }
func (c *config[R]) AbortOnErrors(errs ...error) Builder[R]                  { return c }
func (c *config[R]) HandleErrors(errs ...error) Builder[R]                   { return c }
func (c *config[R]) Build() RetryPolicy[R]                                   { return &policy[R]{c} }

type policy[R any] struct{ *config[R] }

func (p *policy[R]) ToExecutor(int, R) any { return nil }

// NewBuilder returns a builder of a policy of 3 attempts by default.
func NewBuilder[R any]() Builder[R] { return &config[R]{maxRetries: 2} }

// NewWithDefaults returns a policy of 3 attempts.
func NewWithDefaults[R any]() RetryPolicy[R] { return NewBuilder[R]().Build() }
