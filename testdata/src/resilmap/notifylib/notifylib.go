// Package notifylib dispatches to notifiers that configuration chooses at
// run time: the map follows its interface call to every implementation in
// the module mapped.
package notifylib

import "context"

// Notifier sends one notification.
type Notifier interface {
	Notify(ctx context.Context, msg string) error
}

// registry holds the notifiers by name, filled by their packages.
var registry = map[string]func() Notifier{}

// Register makes a notifier available to configuration.
func Register(name string, make func() Notifier) { registry[name] = make }

// Dispatch notifies each notifier configured.
func Dispatch(ctx context.Context, names []string, msg string) {
	for _, name := range names {
		if make, ok := registry[name]; ok {
			_ = make().Notify(ctx, msg)
		}
	}
}

// Stringer is an interface of the module no dispatch calls.
type Stringer interface {
	String() string
}
