package grpcx_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// TestDocumentedChainUnderLoad runs the package doc's chain, client and
// server, with concurrent unary calls and streams against a server that
// fails, stalls and answers, callers that cancel and streams abandoned
// half read: every call ends with a status the rules allow, the race
// detector and the leak check stay quiet.
func TestDocumentedChainUnderLoad(t *testing.T) {
	var n atomic.Int32
	svc := &service{
		unary: func(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			switch n.Add(1) % 5 {
			case 0:
				return nil, status.Error(codes.Unavailable, "flaky")
			case 1:
				select { // slow: hedged, or cut by the attempt timeout
				case <-time.After(300 * time.Millisecond):
				case <-ctx.Done():
					return nil, status.FromContextError(ctx.Err()).Err()
				}
			case 2:
				return nil, status.Error(codes.NotFound, "no such thing")
			}
			return reply("ok"), nil
		},
		output: func(req *testgrpc.StreamingOutputCallRequest, s outputStream) error {
			if n.Add(1)%4 == 0 {
				return status.Error(codes.Unavailable, "flaky")
			}
			return outputOf(req, s, len(req.ResponseParameters))
		},
	}
	shared := &budget.Ratio{}
	policy := &retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, Budget: shared}
	breakers := breaker.NewGroup(0, func(string) breaker.Settings { return breaker.Settings{FailureRate: 0.9} })
	server := grpcx.ServerOptions{Default: 5 * time.Second, Max: 10 * time.Second, Trusted: grpcx.TrustAll}
	c := start(t, svc, serverChain(server),
		unary(
			grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 5 * time.Second, Reserve: 10 * time.Millisecond}),
			grpcx.UnaryRetry(grpcx.RetryOptions{Policy: policy}),
			grpcx.Hedge(&hedge.Policy{Delay: 20 * time.Millisecond, Budget: shared}, grpcx.IdempotentMethods(unaryCall)),
			grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: breakers}),
			grpcx.UnaryAttemptTimeout(100*time.Millisecond),
		),
		streams(
			grpcx.StreamDeadline(grpcx.DeadlineOptions{Reserve: 10 * time.Millisecond, PerMethod: map[string]time.Duration{outputCall: 5 * time.Second}}),
			grpcx.StreamRetry(grpcx.RetryOptions{Policy: policy}),
			grpcx.StreamBreaker(grpcx.BreakerOptions{Breakers: breakers}),
			grpcx.StreamSetupTimeout(200*time.Millisecond),
		),
	)
	allowed := map[codes.Code]bool{codes.OK: true, codes.NotFound: true, codes.Unavailable: true, codes.DeadlineExceeded: true, codes.Canceled: true}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if i%7 == 0 {
				time.AfterFunc(10*time.Millisecond, cancel) // the caller gives up
			}
			_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
			if code := status.Code(err); !allowed[code] {
				t.Errorf("unary call: %v", err)
			}
		})
	}
	for i := range 20 {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := c.StreamingOutputCall(ctx, outputRequest("x", 3))
			if err != nil {
				if !allowed[status.Code(err)] {
					t.Errorf("stream: %v", err)
				}
				return
			}
			if i%3 == 0 {
				s.Recv() // abandoned after one message: cancel releases it
				return
			}
			if _, err := readAll(s.Recv); !allowed[status.Code(err)] {
				t.Errorf("stream: %v", err)
			}
		})
	}
	wg.Wait()
}
