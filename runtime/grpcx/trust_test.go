package grpcx_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/resilvet/resilvet/runtime/grpcx"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// TestTrustAllAgreesAcrossProtocols: the runtime keeps two TrustAll
// functions because a trust decision reads what the protocol gives
// (retry.Middleware the *http.Request, grpcx.ServerOptions the handler's
// context). They must agree: the same client (3 attempts), handler (a
// retry layer of 3 around a dependency that is down) and trust decision
// give the handler the same attempt marks and the dependency the same
// number of calls over HTTP and over gRPC, and the same when trust is
// refused.
func TestTrustAllAgreesAcrossProtocols(t *testing.T) {
	for _, c := range []struct {
		name      string
		httpTrust func(*http.Request) bool
		grpcTrust func(context.Context) bool
		want      int
		callerSaw []int
	}{
		{"trust all", retry.TrustAll, grpcx.TrustAll, 3, []int{1, 2, 3}},
		{"trust none", nil, nil, 9, []int{0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			overHTTP := &handlerRetrying{}
			srv := httptest.NewServer(retry.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, err := overHTTP.handle(r.Context(), nil)
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
			}), c.httpTrust))
			defer srv.Close()
			client := &http.Client{Transport: &retry.Transport{Base: srv.Client().Transport}}
			err := retry.Do(context.Background(), fastPolicy(3, nil), func(ctx context.Context) error {
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
				if err != nil {
					return retry.Permanent(err)
				}
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				return retry.ResponseError(resp)
			})
			if err == nil {
				t.Fatal("the HTTP call succeeded against a dependency that is down")
			}

			overGRPC := &handlerRetrying{}
			cl := start(t, &service{unary: overGRPC.handle}, serverChain(grpcx.ServerOptions{Trusted: c.grpcTrust}),
				unary(grpcx.UnaryRetry(grpcx.RetryOptions{Policy: fastPolicy(3, nil)})))
			if _, err := cl.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable {
				t.Fatalf("gRPC: got %v", err)
			}

			for proto, h := range map[string]*handlerRetrying{"HTTP": overHTTP, "gRPC": overGRPC} {
				h.mu.Lock()
				if h.depCalls != c.want {
					t.Errorf("%s: the dependency got %d calls, want %d", proto, h.depCalls, c.want)
				}
				if !slices.Equal(h.callerSaw, c.callerSaw) {
					t.Errorf("%s: the handler's context said attempts %v, want %v", proto, h.callerSaw, c.callerSaw)
				}
				h.mu.Unlock()
			}
		})
	}
}
