// Package dispatch is the rider- and driver-facing HTTP API of the
// dispatch service: ride requests, cancellations, driver assignment.
package dispatch

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"heldout2/eta"
	"heldout2/locations"
	"heldout2/platform"
	"heldout2/pricing"
	"heldout2/routing"
	"heldout2/webhooks"
)

// Deps are the collaborators main builds.
type Deps struct {
	DB         *sql.DB
	Pricing    pricing.PricingClient
	ETA        *eta.Cache
	Router     *routing.Client
	Locations  *locations.Store
	Push       *PushClient
	Hooks      *webhooks.Dispatcher
	Bus        *platform.Bus
	SupportURL string
	Popular    []pricing.QuoteRequest
	Log        *slog.Logger
}

// Zone is a pricing/dispatch zone as shown in the rider app.
type Zone struct {
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Polygon json.RawMessage `json:"polygon"`
}

// Server serves the dispatch API.
type Server struct {
	db         *sql.DB
	pricing    pricing.PricingClient
	eta        *eta.Cache
	router     *routing.Client
	locs       *locations.Store
	push       *PushClient
	hooks      *webhooks.Dispatcher
	bus        *platform.Bus
	supportURL string
	popular    []pricing.QuoteRequest
	log        *slog.Logger

	quotes sync.Map // quote ID -> *pricing.QuoteResponse

	zonesOnce sync.Once
	zones     []Zone
	zonesErr  error
}

// NewServer builds the server and subscribes its event handlers.
// heldout: clean — wiring only, no I/O
func NewServer(d Deps) *Server {
	s := &Server{
		db: d.DB, pricing: d.Pricing, eta: d.ETA, router: d.Router, locs: d.Locations,
		push: d.Push, hooks: d.Hooks, bus: d.Bus, supportURL: d.SupportURL, popular: d.Popular, log: d.Log,
	}
	d.Bus.Subscribe("trip.completed", s.onTripCompleted)
	return s
}

// Routes returns the API's handler with its middleware.
// heldout: clean — builds the mux; the gin closure hands r to driverStatus, whose finding is its own
func (s *Server) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/quotes", s.handleQuote)
	mux.HandleFunc("POST /v1/rides", s.handleRequestRide)
	mux.HandleFunc("POST /v1/rides/{id}/cancel", s.handleCancelRide)
	mux.HandleFunc("POST /v1/rides/{id}/complete", s.handleCompleteTrip)
	mux.HandleFunc("GET /v1/rides/{id}/receipt", s.handleTripReceipt)
	mux.HandleFunc("POST /v1/ops/assign", s.handleAssign)
	mux.HandleFunc("POST /v1/support/issues", s.handleReportIssue)
	mux.HandleFunc("GET /v1/zones", s.handleZones)
	mux.HandleFunc("GET /readyz", s.handleReady)
	// Ported from the old gin service; the handler still takes a *gin.Context.
	mux.HandleFunc("GET /v1/drivers/{id}/status", func(w http.ResponseWriter, r *http.Request) {
		st, err := s.driverStatus(&gin.Context{Request: r})
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		writeJSON(w, http.StatusOK, st)
	})
	return platform.Deadline(8 * time.Second)(mux)
}

// heldout: clean — local encoding
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// onTripCompleted forwards completed trips to subscribed partners.
// heldout: ctxdrop — passes context.Background() to Fanout while the bus handler's ctx is in scope
func (s *Server) onTripCompleted(ctx context.Context, e platform.Event) error {
	evt := webhooks.Event{Type: "trip.completed", ID: e.Key, Data: e.Payload, At: e.At}
	if err := s.hooks.Fanout(context.Background(), evt); err != nil {
		s.log.Warn("trip.completed fan-out incomplete", "trip", e.Key, "err", err)
	}
	return nil
}

// WarmQuotes keeps quotes for the busiest routes (airports, main
// stations) fresh so the first rider after a lull does not wait on
// pricing. Runs until stop is closed.
// heldout: notimeout — platform.ServiceContext() has no deadline and reaches the pricing Quote RPC on every tick
func (s *Server) WarmQuotes(every time.Duration, stop <-chan struct{}) {
	ctx := platform.ServiceContext()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		for i := range s.popular {
			q, err := s.pricing.Quote(ctx, &s.popular[i])
			if err != nil {
				s.log.Warn("quote warm-up failed", "zone", s.popular[i].Zone, "err", err)
				continue
			}
			s.quotes.Store(q.QuoteID, q)
		}
	}
}

// WatchSurge long-polls pricing for surge changes in zone and publishes
// them on the bus, until stop is closed.
// heldout: clean — WaitForSurgeChange is a unary wait-for-event RPC; a deadline would only cut the long poll short
func (s *Server) WatchSurge(zone string, stop <-chan struct{}) {
	var last int64
	for {
		select {
		case <-stop:
			return
		default:
		}
		u, err := s.pricing.WaitForSurgeChange(context.Background(), &pricing.SurgeRequest{Zone: zone, LastSeenAt: last})
		if err != nil {
			s.log.Warn("surge watch failed", "zone", zone, "err", err)
			time.Sleep(5 * time.Second)
			continue
		}
		last = u.At
		payload, _ := json.Marshal(u)
		s.bus.PublishAsync(context.Background(), platform.Event{Topic: "surge.changed", Key: zone, Payload: payload, At: time.Now()})
	}
}
