// Package funcs holds the func-values claim's fixtures: how many times a
// function calls each func parameter, through helpers and closures.
package funcs

import (
	"context"
	"errors"
	"sync"
	"time"
)

const attempts = 4

// Twice calls op twice in a row: two calls, not one.
func Twice(op func() error) error { // want Twice:`^calls\(0,x2\)$`
	if err := op(); err != nil {
		return err
	}
	return op()
}

// Either calls op on one branch or the other: once.
func Either(fast bool, op func() error) error { // want Either:`^calls\(1,x1\)$`
	if fast {
		return op()
	}
	time.Sleep(time.Millisecond)
	return op()
}

// Counted tries op a constant number of times, named across the file.
func Counted(ctx context.Context, op func(context.Context) error) error { // want Counted:`^ctxIO\(0\) calls\(1,x4,arg0=p0\) retriesParam\(1: loop x4\)$`
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Ranged uses range over an integer.
func Ranged(op func() error) (err error) { // want Ranged:`^calls\(0,x5\) retriesParam\(0: loop x5\)$`
	for range 5 {
		if err = op(); err == nil {
			break
		}
	}
	return err
}

// Inclusive counts 1..3 inclusive.
func Inclusive(op func(int) error) (err error) { // want Inclusive:`^calls\(0,x3\)$`
	for i := 1; i <= 3; i++ {
		err = op(i)
	}
	return err
}

// Forever retries until op succeeds: no bound on the count.
func Forever(op func() error) error { // want Forever:`^calls\(0,x∞\) retriesParam\(0: loop x∞\)$`
	for {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Nested multiplies: 3 outer tries of 2 inner ones.
func Nested(op func() error) error { // want Nested:`^calls\(0,x6\) retriesParam\(0: loop x3 > loop x2\)$`
	var err error
	for i := 0; i < 3; i++ {
		for j := 0; j < 2; j++ {
			if err = op(); err == nil {
				return nil
			}
		}
	}
	return err
}

// Forward hands op to Counted: the count survives the helper, and so
// does which parameter is passed to op.
func Forward(ctx context.Context, op func(context.Context) error) error { // want Forward:`^ctxIO\(0\) calls\(1,x4,arg0=p0\) retriesParam\(1: loop x4\)$`
	return Counted(ctx, op)
}

// Wrapped calls op inside a closure that Counted calls: the closure's
// one call times Counted's four.
func Wrapped(ctx context.Context, op func() error) error { // want Wrapped:`^ctxIO\(0\) calls\(1,x4\) retriesParam\(1: loop x4\)$`
	return Counted(ctx, func(context.Context) error { return op() })
}

// Direct calls op through a closure it calls itself, twice.
func Direct(op func() error) error { // want Direct:`^calls\(0,x2\)$`
	run := func() error { return op() }
	_ = run()
	return run()
}

// Escapes stores the closure that calls op: how often it runs is not
// known here.
func Escapes(op func() error) func() error { // want Escapes:`^calls\(0,x\?\)$`
	f := func() error { return op() }
	return f
}

// Unbounded by a parameter: the count is not a constant.
func Unbounded(n int, op func() error) (err error) { // want Unbounded:`^calls\(1,x∞\)$`
	for i := 0; i < n; i++ {
		err = op()
	}
	return err
}

// Items loops over a slice: op runs once per item, as many as there are.
func Items(items []string, op func(string) error) error { // want Items:`^calls\(1,x∞\)$`
	for _, it := range items {
		if err := op(it); err != nil {
			return err
		}
	}
	return nil
}

// NotCalled passes op nowhere that calls it: no claim.
func NotCalled(op func() error) error {
	if op == nil {
		return errors.New("no op")
	}
	return nil
}

// Retrier keeps its attempt count in a field its constructor sets to a
// constant: loops bounded by the field run that many times.
type Retrier struct{ max int }

func NewRetrier() *Retrier { return &Retrier{max: 3} }

func (r *Retrier) Do(op func() error) (err error) { // want Do:`^calls\(0,x3\) retriesParam\(0: loop x3\)$`
	for i := 0; i < r.max; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// Tunable's field is also set from a parameter: not a constant.
type Tunable struct{ max int }

func NewTunable(n int) *Tunable { return &Tunable{max: n} }

func (t *Tunable) Do(op func() error) (err error) { // want Do:`^calls\(0,x∞\)$`
	for i := 0; i < t.max; i++ {
		err = op()
	}
	return err
}

// Runner is implemented by retrying and plain runners.
type Runner interface {
	Run(op func() error) error // want Run:`^calls\(0,x3\)$`
}

type retrying struct{}

func (retrying) Run(op func() error) (err error) { // want Run:`^calls\(0,x3\) retriesParam\(0: loop x3\)$`
	for range 3 {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

type plain struct{}

func (plain) Run(op func() error) error { return op() } // want Run:`^calls\(0,x1\)$`

// ThroughInterface calls op through a Runner whose dynamic type is not
// known: the larger count of the package's implementations.
func ThroughInterface(r Runner, op func() error) error { // want ThroughInterface:`^calls\(1,x3\)$`
	return r.Run(op)
}

// ThroughKnown calls op through a Runner known to be plain: once.
func ThroughKnown(op func() error) error { // want ThroughKnown:`^calls\(0,x1\)$`
	var r Runner = plain{}
	return r.Run(op)
}

// OnceWithContext uses its context inside a closure run once: it still
// matters (a captured parameter is boxed by the SSA builder).
func OnceWithContext(ctx context.Context, f func(context.Context) error) { // want OnceWithContext:`^ctxIO\(0\) calls\(1,x\?\)$`
	var once sync.Once
	once.Do(func() { _ = f(ctx) })
}
