// Package runtime is the root of resilvet's companion runtime: the
// packages that resilvet's suggested fixes rewrite code to use.
//
//   - deadline: Ensure, Remaining, Reserve, Check, Live, and budget
//     propagation over HTTP (Transport, Middleware)
//   - retry: Do/DoValue with capped full-jitter backoff, a transient-only
//     classifier, Retry-After pushback, a shared budget, deadline
//     awareness, and attempt marks in the context so nested layers do not
//     multiply
//   - breaker: count or time windows, minimum calls, failure and slow-call
//     rates, bounded half-open probes, jittered growing cooldown, metrics,
//     keyed groups and an http.RoundTripper
//   - budget: Finagle-style ratio budgets and gRPC-style token buckets,
//     exact under concurrency
//   - hedge: hedged requests for operations declared idempotent, with a
//     fixed or adaptive delay, budget and limiter, and an http.RoundTripper
//     for idempotent requests; the first copy runs on the caller's
//     goroutine, the winner's context lives as long as its response body
//   - clocktest: a fake clock every Clock field accepts, for deterministic
//     tests of code that retries, breaks and hedges
//
// The gRPC adapter, github.com/resilvet/resilvet/runtime/grpcx, is a module
// of its own (it depends on google.golang.org/grpc): client and server
// interceptors for deadlines, retries, breakers and hedging.
//
// Compose them in this order, outermost first (see Example):
//
//	deadline → retry (budget, remaining deadline) → breaker → per-attempt timeout
//
// The module depends on the standard library only, so adopting it pulls in
// nothing else. Every package takes a context first, has an injectable
// clock for tests, documents its zero-value defaults, and returns
// lowercase sentinel errors usable with errors.Is. The repository's
// docs/runtime.md explains the semantics in depth and lists the peer
// libraries' defects this runtime is tested against.
package runtime
