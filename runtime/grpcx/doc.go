// Package grpcx adapts the resilvet runtime to gRPC: client interceptors
// that bound, retry, break and hedge calls in the runtime's order, server
// interceptors that apply and shed deadlines and keep retry layers from
// multiplying across the hop, and classifiers of gRPC status codes for
// retry and breaker that work without the interceptors.
//
// It is a module of its own, so that the runtime stays free of
// dependencies: only programs that use gRPC pay for it.
//
// # Client
//
// Chain the interceptors in the runtime's order, outermost first
// (deadline → retry (budget, remaining deadline) → breaker → per-attempt
// timeout), with the hedge inside the retry, which retries the hedged
// call as a whole, and outside the breaker, which judges every copy:
//
//	shared := &budget.Ratio{} // one deposit per logical request between retry and hedge
//	policy := &retry.Policy{MaxAttempts: 3, Budget: shared}
//	breakers := new(breaker.Group)
//	conn, err := grpc.NewClient(target,
//		grpc.WithTransportCredentials(creds),
//		grpc.WithChainUnaryInterceptor(
//			grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 5 * time.Second, Reserve: 20 * time.Millisecond}),
//			grpcx.UnaryRetry(grpcx.RetryOptions{Policy: policy}),
//			grpcx.Hedge(&hedge.Policy{Budget: shared}, grpcx.IdempotentMethods("/shop.Catalog/Get", "/shop.Catalog/List")),
//			grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: breakers}),
//			grpcx.UnaryAttemptTimeout(time.Second),
//		),
//		grpc.WithChainStreamInterceptor(
//			grpcx.StreamDeadline(grpcx.DeadlineOptions{Reserve: 20 * time.Millisecond}),
//			grpcx.StreamRetry(grpcx.RetryOptions{Policy: policy}),
//			grpcx.StreamBreaker(grpcx.BreakerOptions{Breakers: breakers}),
//			grpcx.StreamSetupTimeout(2 * time.Second),
//		),
//	)
//
// Why this order. The deadline comes first so that every attempt,
// every copy and every backoff in between spends one budget: the
// caller's deadline less a reserve for its own work, or a default when
// the caller set none. The retry is next, so that it sees every failure
// and its waits never outlast that deadline. The hedge is inside the
// retry: a hedged call that failed is retried as a whole, and a shared
// budget pays once for the request. The breaker is inside both, so
// that each attempt and each copy counts, and an open circuit fails an
// attempt fast, which the retry does not retry. The per-attempt timeout
// is innermost, so that an attempt that runs out of it counts as the
// dependency's failure in the breaker, and is retried, while the
// caller's own deadline or cancellation counts as neither.
//
// The rules:
//
//   - UnaryDeadline bounds every unary call without a deadline
//     (DeadlineOptions.PerMethod by full method name, else Default: 10 s
//     when zero) and sends calls that have one with the remaining time
//     less Reserve, which gRPC carries to the server in grpc-timeout. A
//     call with no time left beyond the reserve is not sent. Streams get
//     a deadline only from the caller or PerMethod; StreamSetupTimeout
//     bounds the wait for their first response.
//   - UnaryRetry and StreamRetry retry through retry.Do, so they honour
//     the runtime's nesting rule and budget. They retry what Retryable
//     retries: Unavailable; ResourceExhausted only with the server's
//     pushback (grpc-retry-pushback-ms, honoured as the delay) or with
//     RetryOptions.ResourceExhausted; Aborted with RetryOptions.Aborted;
//     an attempt's own timeout while the caller's context is alive; never
//     the caller's DeadlineExceeded or Canceled, an open circuit, or
//     InvalidArgument, NotFound, PermissionDenied and the other codes a
//     retry would meet again. Calls made inside a layer that retries
//     carry the attempt number in AttemptMetadata ("retry-attempt").
//   - A stream is retried only before its first response: the messages
//     sent until then are kept (up to RetryOptions.ReplayBuffer, 256 KiB)
//     and replayed on the new stream; after the first message received,
//     or past the buffer, the stream is committed and not retried.
//   - UnaryBreaker and StreamBreaker keep a breaker per target (ByTarget)
//     or per method (ByMethod) in a breaker.Group and count outcomes by
//     BreakerOutcome: the codes of a server that answered on the merits
//     (InvalidArgument, NotFound, AlreadyExists, PermissionDenied,
//     Unauthenticated, FailedPrecondition, Aborted, OutOfRange,
//     Unimplemented) are successes, the caller's own cancellation or
//     deadline is ignored, and Unavailable, Internal, Unknown, DataLoss,
//     ResourceExhausted and an attempt's DeadlineExceeded are failures. A
//     call the circuit refuses fails with Unavailable, errors.Is(err,
//     breaker.ErrOpen) holds, and no retry layer retries it.
//   - Hedge hedges only the methods declared with IdempotentMethods, by
//     full method name; every other call passes through unhedged. Each
//     copy decodes into a fresh reply, and the winner's is merged into
//     the caller's.
//
// Zero values, each documented on its field:
//
//   - DeadlineOptions{}: unary calls without a deadline get 10 s, streams
//     none; no reserve (a call whose deadline has passed is still not sent).
//   - RetryOptions{}: retry's default policy (3 attempts, 100 ms base
//     backoff with full jitter, 10 s cap, no budget); no retries of
//     Aborted, nor of ResourceExhausted without pushback; a 256 KiB
//     replay buffer for streams.
//   - BreakerOptions{}: one breaker of default Settings per target in a
//     Group of the interceptor's own, outcomes by BreakerOutcome.
//   - Hedge(nil, ...): a zero hedge.Policy of the interceptor's own
//     (adaptive p95 delay, 2 copies, its own budget of 10% plus 1 a
//     second). Hedging is for unary calls only.
//   - UnaryAttemptTimeout(0), StreamSetupTimeout(0): no timeout.
//   - ServerOptions{}: the caller's deadline as sent, none added, spent
//     deadlines shed, no caller trusted.
//
// # Server
//
//	srv := grpc.NewServer(
//		grpc.ChainUnaryInterceptor(grpcx.UnaryServer(grpcx.ServerOptions{Default: 10 * time.Second, Max: 30 * time.Second, Trusted: internalCaller})),
//		grpc.ChainStreamInterceptor(grpcx.StreamServer(grpcx.ServerOptions{Max: time.Hour, Trusted: internalCaller})),
//	)
//
// UnaryServer and StreamServer are the gRPC twins of deadline.Middleware
// and retry.Middleware. Put them first: they shed a request whose
// deadline is already spent (DeadlineExceeded, without calling the
// handler), cap the caller's deadline at Max, give a request without one
// Default, and mark a request that carries AttemptMetadata from a
// trusted caller with retry.WithCaller, so that the handler's retry
// layers leave to the caller the failures it retries: a client retrying
// 3 times through a server whose handler retries 3 times sends 3 calls
// to the dependency, not 9. ServerOptions.Trusted decides who is trusted;
// nil trusts no one.
//
// # Errors
//
// Every error the interceptors return keeps a gRPC status (status.Code
// works), and wraps what explains it: breaker.ErrOpen for an open
// circuit, deadline.ErrInsufficient or deadline.ErrExpired for a call
// the deadline left no time for, retry's reasons (retry.Attempts,
// retry.ErrAttemptsExhausted) after retries. Retryable failures are
// marked with retry.Retry, which is how retry layers that know nothing of
// gRPC (retry.Transient) learn that they are transient.
package grpcx
