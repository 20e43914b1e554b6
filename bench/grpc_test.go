package bench

import (
	"context"
	"net"
	"testing"
	"time"

	fscb "github.com/failsafe-go/failsafe-go/circuitbreaker"
	fsgrpc "github.com/failsafe-go/failsafe-go/failsafegrpc"
	fsretry "github.com/failsafe-go/failsafe-go/retrypolicy"
	fstimeout "github.com/failsafe-go/failsafe-go/timeout"
	mwretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/test/bufconn"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/grpcx"
	rvretry "github.com/resilvet/resilvet/runtime/retry"
)

type emptyServer struct {
	testgrpc.UnimplementedTestServiceServer
}

func (emptyServer) UnaryCall(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	return &testgrpc.SimpleResponse{}, nil
}

// inProcess serves the test service over an in-memory listener and
// returns a dialer for clients with the given interceptors.
func inProcess(b *testing.B) func(...grpc.UnaryClientInterceptor) testgrpc.TestServiceClient {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	testgrpc.RegisterTestServiceServer(srv, emptyServer{})
	go srv.Serve(lis)
	b.Cleanup(srv.Stop)
	return func(chain ...grpc.UnaryClientInterceptor) testgrpc.TestServiceClient {
		cc, err := grpc.NewClient("passthrough:///bench",
			grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithChainUnaryInterceptor(chain...))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cc.Close() })
		return testgrpc.NewTestServiceClient(cc)
	}
}

// BenchmarkGRPCUnaryChain is the unary client interceptor chain's cost
// per call on an in-process server (a call that succeeds at once), under
// a request context with a deadline and a cancellable parent: no
// interceptors; resilvet's documented chain (deadline, retry with a
// budget, breaker, per-attempt timeout); go-grpc-middleware's retry
// interceptor; failsafe-go's interceptor with retry, circuit breaker and
// timeout policies.
func BenchmarkGRPCUnaryChain(b *testing.B) {
	ctx := requestCtx(b)
	dial := inProcess(b)
	req := &testgrpc.SimpleRequest{}
	clients := []struct {
		name   string
		client testgrpc.TestServiceClient
	}{
		{"direct", dial()},
		{"resilvet", dial(
			grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 10 * time.Second}),
			grpcx.UnaryRetry(grpcx.RetryOptions{Policy: &rvretry.Policy{Budget: &budget.Ratio{}}}),
			grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: &breaker.Group{}}),
			grpcx.UnaryAttemptTimeout(time.Second),
		)},
		{"go-grpc-middleware-retry", dial(mwretry.UnaryClientInterceptor(
			mwretry.WithMax(3), mwretry.WithCodes(codes.Unavailable), mwretry.WithPerRetryTimeout(time.Second)))},
		{"failsafe-go", dial(fsgrpc.NewUnaryClientInterceptor[any](
			fsretry.NewWithDefaults[any](), fscb.NewWithDefaults[any](), fstimeout.New[any](time.Second)))},
	}
	for _, c := range clients {
		b.Run(c.name, func(b *testing.B) {
			both(b, func() {
				if _, err := c.client.UnaryCall(ctx, req); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// chain calls interceptors in order around invoker, as grpc does.
func chain(interceptors []grpc.UnaryClientInterceptor, invoker grpc.UnaryInvoker) grpc.UnaryInvoker {
	for i := len(interceptors) - 1; i >= 0; i-- {
		ic, next := interceptors[i], invoker
		invoker = func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, opts ...grpc.CallOption) error {
			return ic(ctx, method, req, reply, cc, next, opts...)
		}
	}
	return invoker
}

// BenchmarkGRPCInterceptorsOnly is the interceptors' own cost per call:
// the same chains around an invoker that answers at once, no transport
// (an in-process round trip costs about 30 µs and varies by more than
// the chains cost).
func BenchmarkGRPCInterceptorsOnly(b *testing.B) {
	ctx := requestCtx(b)
	cc, err := grpc.NewClient("passthrough:///bench", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cc.Close() })
	answer := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return nil }
	chains := []struct {
		name string
		ics  []grpc.UnaryClientInterceptor
	}{
		{"resilvet", []grpc.UnaryClientInterceptor{
			grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 10 * time.Second}),
			grpcx.UnaryRetry(grpcx.RetryOptions{Policy: &rvretry.Policy{Budget: &budget.Ratio{}}}),
			grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: &breaker.Group{}}),
			grpcx.UnaryAttemptTimeout(time.Second),
		}},
		// Like with like: retry alone on both sides, then retry with a
		// per-attempt timeout of 1 s on both sides (go-grpc-middleware's
		// WithPerRetryTimeout, resilvet's UnaryAttemptTimeout after it).
		{"resilvet-retry-only", []grpc.UnaryClientInterceptor{grpcx.UnaryRetry(grpcx.RetryOptions{})}},
		{"go-grpc-middleware-retry-only", []grpc.UnaryClientInterceptor{mwretry.UnaryClientInterceptor(
			mwretry.WithMax(3), mwretry.WithCodes(codes.Unavailable))}},
		{"resilvet-retry-attempt-timeout", []grpc.UnaryClientInterceptor{
			grpcx.UnaryRetry(grpcx.RetryOptions{}), grpcx.UnaryAttemptTimeout(time.Second)}},
		{"go-grpc-middleware-retry", []grpc.UnaryClientInterceptor{mwretry.UnaryClientInterceptor(
			mwretry.WithMax(3), mwretry.WithCodes(codes.Unavailable), mwretry.WithPerRetryTimeout(time.Second))}},
		{"failsafe-go", []grpc.UnaryClientInterceptor{fsgrpc.NewUnaryClientInterceptor[any](
			fsretry.NewWithDefaults[any](), fscb.NewWithDefaults[any](), fstimeout.New[any](time.Second))}},
	}
	req, reply := &testgrpc.SimpleRequest{}, &testgrpc.SimpleResponse{}
	for _, c := range chains {
		invoke := chain(c.ics, answer)
		b.Run(c.name, func(b *testing.B) {
			both(b, func() {
				if err := invoke(ctx, "/grpc.testing.TestService/UnaryCall", req, reply, cc); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
