// Package failsafe is a stub of github.com/failsafe-go/failsafe-go for
// tests.
package failsafe

import "context"

// Policy is a resilience policy.
type Policy[R any] interface {
	ToExecutor(policyIndex int, result R) any
}

// Execution is an execution in progress.
type Execution[R any] interface {
	Attempts() int
	Context() context.Context
}

// Executor runs functions through policies.
type Executor[R any] interface {
	WithContext(ctx context.Context) Executor[R]
	Run(fn func() error) error
	RunWithExecution(fn func(exec Execution[R]) error) error
	Get(fn func() (R, error)) (R, error)
	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)
}

type executor[R any] struct{ policies []Policy[R] }

func (e *executor[R]) WithContext(ctx context.Context) Executor[R] { return e }
func (e *executor[R]) Run(fn func() error) error                   { return fn() }
func (e *executor[R]) RunWithExecution(fn func(exec Execution[R]) error) error {
	return fn(nil)
}
func (e *executor[R]) Get(fn func() (R, error)) (R, error) { return fn() }
func (e *executor[R]) GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error) {
	return fn(nil)
}

// With returns an executor for the policies, outermost first.
func With[R any](policies ...Policy[R]) Executor[R] { return &executor[R]{policies: policies} }
