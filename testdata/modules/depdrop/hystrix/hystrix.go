// Package hystrix stands in for a circuit-breaker library whose Do makes
// its own context and whose DoC takes one.
package hystrix

import "context"

func Do(name string, run func() error) error {
	return DoC(context.Background(), name, func(context.Context) error { return run() })
}

func DoC(ctx context.Context, name string, run func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return run(ctx)
}

// Wrap calls Do inside the dependency: its alternative is not the
// user's to call.
func Wrap(name string) error { return Do(name, func() error { return nil }) }
