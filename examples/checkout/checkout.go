package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/examples/checkout/payments"
	"github.com/resilvet/resilvet/examples/checkout/recommend"
)

// Server handles checkouts.
type Server struct {
	db       *sql.DB
	payments *payments.Client
}

// Routes returns the service's HTTP routes.
func (s *Server) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /checkout", s.Checkout)
	mux.HandleFunc("GET /recent", s.Recent)
	return mux
}

type receipt struct {
	OrderID string   `json:"order_id"`
	Upsell  []string `json:"upsell,omitempty"`
}

// Checkout charges the cart of the user and records the order.
func (s *Server) Checkout(w http.ResponseWriter, r *http.Request) {
	user := r.Header.Get("X-User")

	// Mistake: the query runs without the request's context, so a slow
	// database holds this handler after the client has given up.
	var total int64
	if err := s.db.QueryRow("SELECT sum(price) FROM cart WHERE user_id = $1", user).Scan(&total); err != nil {
		http.Error(w, "cart unavailable", http.StatusServiceUnavailable)
		return
	}

	// Mistake: a fresh context cuts the charge loose from the request's
	// deadline and cancellation.
	charge, err := s.payments.Charge(context.Background(), user, total)
	if err != nil {
		http.Error(w, "payment failed", http.StatusBadGateway)
		return
	}

	// Correct: the insert carries the request's context.
	if _, err := s.db.ExecContext(r.Context(), "INSERT INTO orders (id, user_id) VALUES ($1, $2)", charge.ID, user); err != nil {
		http.Error(w, "order not recorded", http.StatusInternalServerError)
		return
	}

	// Mistake: the helper makes its own context, so the caller's deadline
	// never reaches the recommendations service.
	upsell, err := recommend.ForUser(user)
	if err != nil {
		slog.WarnContext(r.Context(), "no recommendations", "err", err)
	}

	// Mistake: the audit record must be written even if the client goes
	// away, so it keeps the request's values but not its cancellation, and
	// with the cancellation goes the deadline: a hung database holds the
	// goroutine forever. Bound it too:
	// context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second).
	go s.audit(context.WithoutCancel(r.Context()), charge.ID)

	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(receipt{OrderID: charge.ID, Upsell: upsell})
}

func (s *Server) audit(ctx context.Context, orderID string) {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO audit (order_id) VALUES ($1)", orderID); err != nil {
		slog.ErrorContext(ctx, "audit failed", "order", orderID, "err", err)
	}
}

// Recent lists the products the user viewed recently.
func (s *Server) Recent(w http.ResponseWriter, r *http.Request) {
	// Mistake: recommend.Recent already tries three times, so this loop
	// sends up to nine requests for one page view to a recommendations
	// service that is failing.
	var items []string
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if items, err = recommend.Recent(r.Context(), r.Header.Get("X-User")); err == nil {
			break
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
	if err != nil {
		http.Error(w, "no recent products", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(items)
}
