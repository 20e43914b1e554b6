// Package retrystack defines an Analyzer that reports retry layers nested
// across functions and packages, with the number of attempts they multiply
// to, and retry loops that hammer a failing dependency or sleep past the
// deadline. The analyzer's documentation, shown by `resilvet help
// retrystack`, is the doc variable below; the user guide is
// docs/analyzers/retrystack.md.
package retrystack

import "github.com/resilvet/resilvet/internal/analysisutil"

var doc = analysisutil.Doc{
	Title: "retrystack: report retry layers nested across functions and packages, with the multiplied attempt count",
	Text: `Retries at several layers multiply: a handler that tries 3 times around an
API client that tries 3 times around a store call that tries 3 times sends 27
attempts to the database for one request, and a short outage becomes one that
does not end. retrystack finds the retry layers (hand-written loops that go
round again when a call fails, retry libraries with their defaults and
options, retrying clients, helpers that retry the func they are given),
follows calls through closures, functions and packages with the shared SSA
summaries, and reports:

- nested: a layer that wraps a call into code that retries, with the chain of
  layers and the product of their attempts (-retrystack.min-product reports
  only products above a number);
- hot: a retry loop around a call that is outbound work itself, with no wait
  between attempts: it hammers a dependency that is already failing;
- sleep: a retry loop around outbound work that waits with time.Sleep (or a
  receive from time.After) where a context is in scope: the wait ignores the
  deadline and cancellation;
- ctxerr: an unbounded retry loop that nothing leaves once the call has
  failed, not even a done context: after cancellation it retries the
  context's error for ever;
- open: a circuit breaker's call (gobreaker, the runtime's breaker) in a
  retry loop that never looks for the breaker's open-circuit error;
- body: a Client.Do in a retry loop that sends again a request built before
  it, whose body the first attempt consumed (no GetBody).

Layers it knows: loops (bounded by a constant, a counter that exits, or
unbounded), cenkalti/backoff v4 and v5 (unbounded by count by default;
WithMaxRetries, WithMaxTries), avast/retry-go v4 (10 attempts by default;
Attempts, UntilSucceeded), hashicorp/go-retryablehttp clients (5 attempts by
default; RetryMax) and resilvet's runtime retry.Do and DoValue (3 by default;
MaxAttempts), whose layers make one attempt inside each other unless the inner
policy sets AllowNested: they do not multiply and are not reported. Layers
drawing on one backoff object (a loop's NextBackOff, backoff.Retry's
argument, passed on as a parameter or held in a field) share its budget and
do not multiply either.
failsafe-go executors count their retry policies; go-redis commands (4
attempts, MaxRetries), openai-go requests (3, WithMaxRetries), minio-go
requests (10) and AWS SDK v2 operations (3)
are layers of their own,
and so are gRPC calls on a connection dialled in the package with a retry
service config or go-grpc-middleware's retry interceptor (WithMax).

Not reported: loops over items, pagination, polling that stops on an error,
supervisors that only go round again, pollers that leave only when their
context is done; loops trying local work again; a layer of one attempt;
values the analysis cannot follow; _test.go files unless
-resilvet.include-tests.`,
	Example: `func (s *Service) Account(ctx context.Context, id string) (*Account, error) {
	var err error
	for i := 0; i < 3; i++ {
		var a *Account
		if a, err = s.api.GetAccount(ctx, id); err == nil { // reported: GetAccount retries 3× itself
			return a, nil
		}
		time.Sleep(100 * time.Millisecond) // reported: ignores ctx
	}
	return nil, err
}`,
	Fix: `Keep retries at one layer, usually the outermost one that knows whether
the whole operation may be repeated: make the inner layers single attempts.
Resilvet's runtime retry.Do makes a single attempt when it runs inside another
retry.Do, so layers written with it do not multiply. Wait between attempts
with jittered backoff in a select on ctx.Done(): the suggested fix rewrites a
retry loop's time.Sleep(d) to select { case <-ctx.Done(): case
<-time.After(d): } (not where the loop would then spin). For a nest, the
suggested fix makes an inner hand-written loop of the package its single
attempt, or, where the package already uses the runtime and every inner
layer is a runtime layer, rewrites the outer loop to retry.Do with the same
count (retrying what retry.Transient retries). Silence a
deliberate case with //resilvet:ignore retrystack <reason>.`,
}

// Documentation returns the analyzer's documentation in parts.
func Documentation() analysisutil.Doc { return doc }
