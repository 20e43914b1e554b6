package runtime_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/retry"
)

// Example composes the runtime in the recommended order, outermost first:
// deadline → retry (budget, remaining deadline) → breaker → per-attempt
// timeout. The inventory service fails twice with 503, then answers.
func Example() {
	var calls atomic.Int32
	inventory := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "in stock")
	}))
	defer inventory.Close()
	client := inventory.Client()

	// Shared per dependency, for the life of the process.
	br := breaker.New(breaker.Settings{Name: "inventory"})
	policy := &retry.Policy{BaseDelay: time.Millisecond, Budget: &budget.Ratio{}}

	// Per request: a deadline at the edge (or the caller's, if earlier).
	ctx, cancel := deadline.Ensure(context.Background(), 2*time.Second)
	defer cancel()

	answer, err := retry.DoValue(ctx, policy, func(ctx context.Context) (string, error) {
		return breaker.Execute(ctx, br, func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond) // per attempt
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, inventory.URL, nil)
			if err != nil {
				return "", err
			}
			resp, err := client.Do(req)
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			if err := retry.ResponseError(resp); err != nil {
				return "", err
			}
			b, err := io.ReadAll(resp.Body)
			return string(b), err
		})
	})
	fmt.Println(answer, err, calls.Load(), br.State())
	// Output: in stock <nil> 3 closed
}
