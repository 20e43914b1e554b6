package bench

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cristalhq/hedgedhttp"

	"github.com/resilvet/resilvet/runtime/hedge"
)

// answersAtOnce is the base RoundTripper under both hedging transports: a
// server that answers before any hedge is due, so what is measured is the
// hedging layer's own cost on the common request.
type answersAtOnce struct{}

func (answersAtOnce) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// BenchmarkHedgeTransport sends a GET through each hedging RoundTripper
// under the context a real request has: a deadline under a cancellable
// parent. Both send the first copy at once and would send a second after
// an hour; each copy is a copy of the request with a context of its own
// (hedgedhttp's r.WithContext, resilvet's r.Clone, which also copies the
// headers).
func BenchmarkHedgeTransport(b *testing.B) {
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	reqCtx, cancel := context.WithTimeout(parent, time.Hour)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, "http://backend.example/items/42", nil)
	if err != nil {
		b.Fatal(err)
	}
	roundTrip := func(rt http.RoundTripper) func() {
		return func() {
			resp, err := rt.RoundTrip(req)
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
		}
	}

	fixed := &hedge.Transport{Base: answersAtOnce{}, Policy: &hedge.Policy{Delay: time.Hour, MaxAttempts: 2}}
	b.Run("resilvet", func(b *testing.B) { both(b, roundTrip(fixed)) })
	// The zero Transport: adaptive delay and the default budget.
	b.Run("resilvet-zero", func(b *testing.B) { both(b, roundTrip(&hedge.Transport{Base: answersAtOnce{}})) })
	hh, err := hedgedhttp.NewRoundTripper(time.Hour, 2, answersAtOnce{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("hedgedhttp", func(b *testing.B) { both(b, roundTrip(hh)) })
}
