package grpcx_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/retry"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"
)

// Full method names of the test service.
const (
	unaryCall  = "/grpc.testing.TestService/UnaryCall"
	emptyCall  = "/grpc.testing.TestService/EmptyCall"
	outputCall = "/grpc.testing.TestService/StreamingOutputCall"
	duplexCall = "/grpc.testing.TestService/FullDuplexCall"
)

type (
	outputStream = grpc.ServerStreamingServer[testgrpc.StreamingOutputCallResponse]
	duplexStream = grpc.BidiStreamingServer[testgrpc.StreamingOutputCallRequest, testgrpc.StreamingOutputCallResponse]
)

// service is gRPC's interop TestService with each method's behaviour set
// by the test; methods left nil answer Unimplemented.
type service struct {
	testgrpc.UnimplementedTestServiceServer
	unary  func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error)
	empty  func(context.Context, *testgrpc.Empty) (*testgrpc.Empty, error)
	output func(*testgrpc.StreamingOutputCallRequest, outputStream) error
	duplex func(duplexStream) error
}

func (s *service) UnaryCall(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	if s.unary == nil {
		return s.UnimplementedTestServiceServer.UnaryCall(ctx, req)
	}
	return s.unary(ctx, req)
}

func (s *service) EmptyCall(ctx context.Context, req *testgrpc.Empty) (*testgrpc.Empty, error) {
	if s.empty == nil {
		return s.UnimplementedTestServiceServer.EmptyCall(ctx, req)
	}
	return s.empty(ctx, req)
}

func (s *service) StreamingOutputCall(req *testgrpc.StreamingOutputCallRequest, stream outputStream) error {
	if s.output == nil {
		return s.UnimplementedTestServiceServer.StreamingOutputCall(req, stream)
	}
	return s.output(req, stream)
}

func (s *service) FullDuplexCall(stream duplexStream) error {
	if s.duplex == nil {
		return s.UnimplementedTestServiceServer.FullDuplexCall(stream)
	}
	return s.duplex(stream)
}

// leakChecked holds the tests whose goroutines are checked already.
var leakChecked sync.Map

// start serves svc in process (bufconn) with the server options and
// returns a client connected with the dial options. Everything stops when
// the test ends, and the test fails if goroutines are left behind.
func start(t *testing.T, svc *service, server []grpc.ServerOption, dial ...grpc.DialOption) testgrpc.TestServiceClient {
	t.Helper()
	if _, again := leakChecked.LoadOrStore(t, true); !again {
		// Once per test, before its first server, so that the check
		// runs after every server and connection of the test has stopped.
		ignore := goleak.IgnoreCurrent()
		t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
		t.Cleanup(func() { leakChecked.Delete(t) })
	}
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(server...)
	testgrpc.RegisterTestServiceServer(srv, svc)
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(lis)
	}()
	dial = append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}, dial...)
	conn, err := grpc.NewClient("passthrough:///bufnet", dial...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		srv.Stop()
		<-served
	})
	return testgrpc.NewTestServiceClient(conn)
}

// unary chains client unary interceptors as a dial option.
func unary(i ...grpc.UnaryClientInterceptor) grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(i...)
}

// streams chains client stream interceptors as a dial option.
func streams(i ...grpc.StreamClientInterceptor) grpc.DialOption {
	return grpc.WithChainStreamInterceptor(i...)
}

// sleeps records the backoffs of a retry policy instead of waiting them.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// fastPolicy is a retry policy of n attempts whose backoffs take no time
// (their lengths are recorded in rec, if given) and are 0 (Rand 0), so
// that a delay recorded is the server's pushback.
func fastPolicy(n int, rec *sleeps) *retry.Policy {
	if rec == nil {
		rec = new(sleeps)
	}
	return &retry.Policy{MaxAttempts: n, Sleep: rec.sleep, Rand: func() float64 { return 0 }}
}

// attemptOf returns the AttemptMetadata a server received, or "".
func attemptOf(ctx context.Context) string {
	if v := metadata.ValueFromIncomingContext(ctx, "retry-attempt"); len(v) > 0 {
		return v[0]
	}
	return ""
}

// deadlineOf returns the time left to ctx's deadline, or -1 without one.
func deadlineOf(ctx context.Context) time.Duration {
	d, ok := ctx.Deadline()
	if !ok {
		return -1
	}
	return time.Until(d)
}

func payload(s string) *testgrpc.Payload { return &testgrpc.Payload{Body: []byte(s)} }

func reply(s string) *testgrpc.SimpleResponse {
	return &testgrpc.SimpleResponse{Payload: payload(s)}
}

func body(r *testgrpc.SimpleResponse) string { return string(r.GetPayload().GetBody()) }
