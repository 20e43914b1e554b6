package pricing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"heldout2/routing"
)

// Server implements pricing.v1.Pricing.
type Server struct {
	db     *sql.DB
	promos *mongo.Collection
	surge  *SurgeTable
	router *routing.Client
	log    *slog.Logger
}

// NewServer wires the pricing service.
// heldout: clean — wiring only, no I/O
func NewServer(db *sql.DB, promos *mongo.Collection, surge *SurgeTable, router *routing.Client, log *slog.Logger) *Server {
	return &Server{db: db, promos: promos, surge: surge, router: router, log: log}
}

var _ PricingServer = (*Server)(nil)

type tariff struct{ base, perKm, perMin int64 }

// Quote prices a trip: tariff x route x surge, minus the rider's promo.
// heldout: ctxdrop — calls s.promoFor, which makes its own context for a Mongo lookup, while the RPC's ctx is in scope
func (s *Server) Quote(ctx context.Context, req *QuoteRequest) (*QuoteResponse, error) {
	rt, err := s.router.Route(ctx, req.From, req.To)
	if err != nil {
		return nil, fmt.Errorf("route: %w", err)
	}
	var t tariff
	err = s.db.QueryRowContext(ctx,
		`SELECT base_cents, per_km_cents, per_min_cents FROM tariffs WHERE city = $1 AND product = $2`,
		req.City, req.Product).Scan(&t.base, &t.perKm, &t.perMin)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no tariff for %s/%s", req.City, req.Product)
	} else if err != nil {
		return nil, err
	}
	mult := s.surge.Multiplier(req.Zone)
	fare := float64(t.base+t.perKm*int64(rt.DistanceM)/1000+t.perMin*int64(rt.Duration/time.Minute)) * mult
	fare -= fare * s.promoFor(req.RiderID)
	return &QuoteResponse{
		QuoteID:     fmt.Sprintf("q_%d", time.Now().UnixNano()),
		FareCents:   int64(math.Round(fare)),
		Currency:    "EUR",
		Surge:       mult,
		ExpiresUnix: time.Now().Add(2 * time.Minute).Unix(),
	}, nil
}

// promoFor returns the rider's active discount (0..1), 0 when none.
// heldout: notimeout — its own context.Background() reaches the Mongo FindOne with no deadline
func (s *Server) promoFor(riderID string) float64 {
	res := s.promos.FindOne(context.Background(), map[string]any{"rider_id": riderID, "active": true})
	if res == nil {
		return 0
	}
	return 0.1
}

// Estimate is the cheap price preview shown while the rider types the
// destination: no promo, no quote ID.
// heldout: clean — routing call under the RPC's ctx, surge read is local
func (s *Server) Estimate(ctx context.Context, req *QuoteRequest) (*QuoteResponse, error) {
	rt, err := s.router.Route(ctx, req.From, req.To)
	if err != nil {
		return nil, err
	}
	mult := s.surge.Multiplier(req.Zone)
	km := float64(rt.DistanceM) / 1000
	return &QuoteResponse{FareCents: int64(math.Round((250 + 120*km) * mult)), Currency: "EUR", Surge: mult}, nil
}

// Hold reserves a quoted fare so the price does not change while a
// driver is found.
// heldout: ctxdrop — s.db.Exec without a context inside an RPC handler
func (s *Server) Hold(ctx context.Context, req *HoldRequest) (*HoldResponse, error) {
	if req.Minutes <= 0 || req.Minutes > 15 {
		return nil, fmt.Errorf("hold minutes out of range: %d", req.Minutes)
	}
	_, err := s.db.Exec(
		`INSERT INTO fare_holds (quote_id, rider_id, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))
		 ON CONFLICT (quote_id) DO NOTHING`,
		req.QuoteID, req.RiderID, req.Minutes)
	if err != nil {
		s.log.ErrorContext(ctx, "hold failed", "quote", req.QuoteID, "err", err)
		return nil, err
	}
	return &HoldResponse{OK: true}, nil
}
