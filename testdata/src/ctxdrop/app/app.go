package app

import (
	"context"
	"net/http"

	"ctxdrop/lib"
	"ctxdrop/relay"
)

func Handle(w http.ResponseWriter, r *http.Request) {
	lib.Load("1")                                            // want `call to lib.Load drops the caller's context: it makes its own context.Background\(\) for context-taking work \(lib.go:\d+:\d+\); add a context.Context parameter to lib.Load and pass r.Context\(\) \(1 more call in this package\)`
	lib.Wrapped()                                            // want `call to lib.Wrapped drops the caller's context: .*via lib.inner`
	(&lib.Store{}).Fetch()                                   // want `call to lib.Store.Fetch drops`
	lib.Generic[int](1)                                      // want `call to lib.Generic drops`
	(&lib.Box[string]{}).Save()                              // want `call to lib.Box.Save drops`
	lib.Ping(3)                                              // want `call to lib.Ping drops`
	lib.Good(r.Context())                                    // ok
	lib.StartWorker()                                        // ok
	_ = lib.Lazy()                                           // ok
	local()                                                  // want `call to app.local drops the caller's context: .* via app.helper`
	lib.Connect("db:5432")                                   // want `call to lib.Connect drops the caller's context: it calls net.Dial, which takes none \(lib.go:\d+:\d+\); add a context.Context parameter to lib.Connect and call \(\*net.Dialer\).DialContext with it`
	lib.Health()                                             // want `call to lib.Health drops the caller's context: it calls net.Dial, which takes none \(lib.go:\d+:\d+ via lib.Connect\)`
	lib.Resolve("db")                                        // ok: the resolver bounds the lookup on its own
	lib.Open("/data/db")                                     // ok: the context made inside reaches only local work
	lib.Start(nil)                                           // want `call to lib.Start drops the caller's context: it makes its own context.Background\(\)`
	lib.Sync("/data/db")                                     // want `call to lib.Sync drops the caller's context: it makes its own context.Background\(\)`
	_, _ = lib.NewReq("u")                                   // ok: the caller may attach its context
	_ = lib.LogPrefix(context.Background())                  // ok: it only reads values from its context
	lib.NewCacheStore().Load(context.Background(), "k")      // ok: every implementation here ignores its context
	lib.NewFetcher().Fetch(context.Background(), "http://x") // want `context.Background\(\) passed to lib.Fetcher.Fetch while r.Context\(\) is available`
	relay.Relay("r")                                         // want `call to relay.Relay drops the caller's context: .* via lib.Load`
	lib.Emit("e")                                            // ok: a func value is no evidence
	_ = lib.Announce(nil)                                    // want `call to lib.Announce drops the caller's context`
	_ = lib.Waiter(nil)                                      // want `call to lib.Waiter drops the caller's context: it makes its own context.Background\(\)`
	_ = lib.Probe()                                          // want `call to lib.Probe drops the caller's context`
}

func local() {
	helper()
}

func helper() {
	lib.Good(context.Background())
}

// ok: no context in scope.
func Plain() {
	lib.Load("1")
}

func WithCtx(ctx context.Context) {
	func() {
		_ = ctx
		lib.Load("closure") // counted in the finding at the first call of lib.Load in the package
	}()
	func() {
		lib.Load("no capture") // ok: the closure captures no context
	}()
}

func Detached(ctx context.Context) {
	go func() {
		work(context.WithoutCancel(ctx))
		lib.Load("detached") // ok: the goroutine detached from ctx on purpose
	}()
}

func work(ctx context.Context) { _ = ctx.Err() }

// Refresh's context is not a request's: a helper bounding its own root is
// a deliberate detachment with its own bound, as a root bounded where it
// is made here would be. notimeout is silent too: the call has a deadline.
func Refresh(ctx context.Context) error {
	return lib.Probe()
}
