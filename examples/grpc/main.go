// Command grpc runs a gRPC server and a client in one process, over a
// loopback listener, wired with the resilvet runtime's gRPC interceptors
// (github.com/resilvet/resilvet/runtime/grpcx), and prints what each
// layer does in a few scenarios: retries, pushback, hedging, a stream
// retried before its first message, deadlines, retry layers that do not
// multiply across the hop, and a circuit breaker opening and closing.
//
//	go run .
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

func main() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	inv := &inventory{calls: map[string]int{}}
	serverOpts := grpcx.ServerOptions{Default: 2 * time.Second, Max: 5 * time.Second, Trusted: loopback}
	srv := grpc.NewServer(
		grpc.ChainUnaryInterceptor(grpcx.UnaryServer(serverOpts), logCalls),
		grpc.ChainStreamInterceptor(grpcx.StreamServer(serverOpts), logStreams),
	)
	testgrpc.RegisterTestServiceServer(srv, inv)
	go srv.Serve(lis)
	defer srv.Stop()

	conn := dial(lis.Addr().String(), breaker.Settings{MinCalls: 20})
	defer conn.Close()
	c := testgrpc.NewTestServiceClient(conn)
	ctx := context.Background()

	step("1. Unavailable twice, then an answer: retried, each attempt numbered")
	call(ctx, c, "flaky")

	step("2. InvalidArgument: the server answered on the merits, no retry")
	call(ctx, c, "invalid")

	step("3. ResourceExhausted with a 200 ms pushback trailer: retried after the pushback")
	call(ctx, c, "overloaded")

	step("4. A slow first copy of a method declared idempotent (EmptyCall): hedged after 50 ms")
	start := time.Now()
	_, err = c.EmptyCall(ctx, &testgrpc.Empty{})
	fmt.Printf("  client: EmptyCall → %v in %v (the hedge won; the slow copy is cancelled)\n", status.Code(err), since(start))
	time.Sleep(50 * time.Millisecond) // let the server log the cancelled copy

	step("5. The same slowness on a method not declared idempotent (UnaryCall): sent once")
	call(ctx, c, "slow-unary")

	step("6. A stream that fails before its first message: opened again, its request replayed")
	stream(ctx, c)

	step("7. A caller with 30 ms left and 50 ms reserved for its own work: not sent")
	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	_, err = c.UnaryCall(short, request("never"))
	cancel()
	fmt.Printf("  client: %v (errors.Is deadline.ErrInsufficient: %v)\n", status.Code(err), errors.Is(err, deadline.ErrInsufficient))

	step("8. The server's handler retries its database 3 times, the client retries the server 3 times")
	call(ctx, c, "fanout")
	fmt.Printf("  database: %d calls, not 9: the server trusts this (loopback) caller's retry-attempt\n", inv.dependencyCalls.Load())

	step("9. The server goes down: the circuit opens and calls fail fast, unsent; a probe closes it")
	outage := dial(lis.Addr().String(), breaker.Settings{WindowSize: 4, MinCalls: 4, Cooldown: 300 * time.Millisecond, Probes: 1, CooldownJitter: -1,
		OnStateChange: func(name string, from, to breaker.State) { fmt.Printf("    breaker: %v → %v\n", from, to) }})
	defer outage.Close()
	oc := testgrpc.NewTestServiceClient(outage)
	for range 3 {
		call(ctx, oc, "down")
	}
	time.Sleep(300 * time.Millisecond) // the cooldown
	call(ctx, oc, "back")
}

// dial connects a client with the documented chain of interceptors;
// settings configure its breakers, one per method.
func dial(addr string, settings breaker.Settings) *grpc.ClientConn {
	shared := &budget.Ratio{} // retries and hedges of one request deposit once
	policy := &retry.Policy{
		MaxAttempts: 3,
		BaseDelay:   20 * time.Millisecond,
		Budget:      shared,
		OnRetry: func(attempt int, err error, delay time.Duration) {
			fmt.Printf("    client: attempt %d failed with %v, next in %v\n", attempt, status.Code(err), delay.Round(time.Millisecond))
		},
	}
	breakers := breaker.NewGroup(0, func(string) breaker.Settings { return settings })
	conn, err := grpc.NewClient(addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(
			grpcx.UnaryDeadline(grpcx.DeadlineOptions{Default: 3 * time.Second, Reserve: 50 * time.Millisecond}),
			grpcx.UnaryRetry(grpcx.RetryOptions{Policy: policy}),
			grpcx.Hedge(&hedge.Policy{Delay: 50 * time.Millisecond, Budget: shared}, grpcx.IdempotentMethods("/grpc.testing.TestService/EmptyCall")),
			grpcx.UnaryBreaker(grpcx.BreakerOptions{Breakers: breakers, Key: grpcx.ByMethod}),
			grpcx.UnaryAttemptTimeout(time.Second),
		),
		grpc.WithChainStreamInterceptor(
			grpcx.StreamDeadline(grpcx.DeadlineOptions{Reserve: 50 * time.Millisecond}),
			grpcx.StreamRetry(grpcx.RetryOptions{Policy: policy}),
			grpcx.StreamBreaker(grpcx.BreakerOptions{Breakers: breakers, Key: grpcx.ByMethod}),
			grpcx.StreamSetupTimeout(time.Second),
		),
	)
	if err != nil {
		log.Fatal(err)
	}
	return conn
}

// loopback trusts callers on this machine to say that they retry: what
// authenticates a caller decides, never the metadata itself.
func loopback(ctx context.Context) bool {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return false
	}
	addr, ok := p.Addr.(*net.TCPAddr)
	return ok && addr.IP.IsLoopback()
}

func request(scenario string) *testgrpc.SimpleRequest {
	return &testgrpc.SimpleRequest{Payload: &testgrpc.Payload{Body: []byte(scenario)}}
}

func call(ctx context.Context, c testgrpc.TestServiceClient, scenario string) {
	start := time.Now()
	resp, err := c.UnaryCall(ctx, request(scenario))
	switch {
	case err == nil:
		fmt.Printf("  client: %q in %v\n", resp.GetPayload().GetBody(), since(start))
	case errors.Is(err, breaker.ErrOpen):
		fmt.Printf("  client: %v in %v, not sent: circuit open\n", status.Code(err), since(start))
	case retry.Attempts(err) > 0:
		fmt.Printf("  client: %v in %v, after %d attempts\n", status.Code(err), since(start), retry.Attempts(err))
	default:
		fmt.Printf("  client: %v in %v\n", status.Code(err), since(start))
	}
}

func stream(ctx context.Context, c testgrpc.TestServiceClient) {
	req := &testgrpc.StreamingOutputCallRequest{
		Payload:            &testgrpc.Payload{Body: []byte("watch")},
		ResponseParameters: []*testgrpc.ResponseParameters{{}, {}, {}},
	}
	s, err := c.StreamingOutputCall(ctx, req)
	if err != nil {
		fmt.Printf("  client: %v\n", err)
		return
	}
	for {
		m, err := s.Recv()
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Printf("  client: stream ended: %v\n", status.Code(err))
			return
		}
		fmt.Printf("  client: received %q\n", m.GetPayload().GetBody())
	}
}

func step(s string) { fmt.Printf("\n%s\n", s) }

func since(t time.Time) time.Duration { return time.Since(t).Round(10 * time.Millisecond) }
