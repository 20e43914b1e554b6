package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// inventory is the server: gRPC's interop TestService, whose answers the
// scenarios script. Each request's payload names what the server does
// with its next calls (see answer).
type inventory struct {
	testgrpc.UnimplementedTestServiceServer

	mu    sync.Mutex
	calls map[string]int // calls per scenario

	dependencyCalls atomic.Int32 // the database the "fanout" scenario hits
}

// answer decides the n-th call (from 1) of a scenario.
func (s *inventory) answer(ctx context.Context, scenario string) error {
	s.mu.Lock()
	s.calls[scenario]++
	n := s.calls[scenario]
	s.mu.Unlock()
	switch scenario {
	case "flaky": // down for the first two calls
		if n <= 2 {
			return status.Error(codes.Unavailable, "restarting")
		}
	case "invalid":
		return status.Error(codes.InvalidArgument, "sku must not be empty")
	case "overloaded": // pushes back once
		if n == 1 {
			grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", "200"))
			return status.Error(codes.ResourceExhausted, "queue full")
		}
	case "slow-first", "slow-unary": // the first call is slow
		if n == 1 {
			select {
			case <-time.After(400 * time.Millisecond):
			case <-ctx.Done():
				return status.FromContextError(ctx.Err()).Err()
			}
		}
	case "down":
		return status.Error(codes.Unavailable, "connection refused")
	case "fanout": // the handler retries its own dependency, which is down
		err := retry.Do(ctx, &retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond}, func(context.Context) error {
			s.dependencyCalls.Add(1)
			return syscall.ECONNREFUSED
		})
		return status.Error(codes.Unavailable, err.Error())
	}
	return nil
}

func (s *inventory) UnaryCall(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	scenario := string(req.GetPayload().GetBody())
	if err := s.answer(ctx, scenario); err != nil {
		return nil, err
	}
	return &testgrpc.SimpleResponse{Payload: &testgrpc.Payload{Body: []byte("stock of " + scenario + ": 42")}}, nil
}

// EmptyCall is slow the first time it is called, fast after.
func (s *inventory) EmptyCall(ctx context.Context, _ *testgrpc.Empty) (*testgrpc.Empty, error) {
	if err := s.answer(ctx, "slow-first"); err != nil {
		return nil, err
	}
	return &testgrpc.Empty{}, nil
}

// StreamingOutputCall streams one message per response parameter; its
// first stream of a scenario fails before sending anything.
func (s *inventory) StreamingOutputCall(req *testgrpc.StreamingOutputCallRequest, stream grpc.ServerStreamingServer[testgrpc.StreamingOutputCallResponse]) error {
	scenario := string(req.GetPayload().GetBody())
	s.mu.Lock()
	s.calls[scenario]++
	n := s.calls[scenario]
	s.mu.Unlock()
	if n == 1 {
		return status.Error(codes.Unavailable, "leader changed")
	}
	for i := range req.GetResponseParameters() {
		body := fmt.Sprintf("update %d", i+1)
		if err := stream.Send(&testgrpc.StreamingOutputCallResponse{Payload: &testgrpc.Payload{Body: []byte(body)}}); err != nil {
			return err
		}
	}
	return nil
}

// logCalls prints what the server sees of each call: its attempt number
// (retry-attempt), its deadline, and its answer.
func logCalls(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	seen := describe(ctx, info.FullMethod)
	resp, err := next(ctx, req)
	fmt.Printf("    server: %s → %v\n", seen, status.Code(err))
	return resp, err
}

// logStreams is logCalls for streams.
func logStreams(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	seen := describe(ss.Context(), info.FullMethod)
	err := next(srv, ss)
	fmt.Printf("    server: %s → %v\n", seen, status.Code(err))
	return err
}

func describe(ctx context.Context, fullMethod string) string {
	attempt := "-"
	if v := metadata.ValueFromIncomingContext(ctx, "retry-attempt"); len(v) > 0 {
		attempt = v[0]
	}
	left := "none"
	if d, ok := ctx.Deadline(); ok {
		left = time.Until(d).Round(10 * time.Millisecond).String()
	}
	method := fullMethod[strings.LastIndex(fullMethod, "/")+1:]
	return fmt.Sprintf("%-19s attempt %s, deadline in %-5s", method, attempt, left)
}
