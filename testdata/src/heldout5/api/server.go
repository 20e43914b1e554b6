// Package api is the HTTP front of the payments back end: checkout,
// refunds, captures, loyalty points and the back office's tools.
package api

import (
	"context"
	"encoding/json"
	"net/http"

	retrygo "github.com/avast/retry-go/v4"

	"heldout5/clients"
	"heldout5/orders"
	"heldout5/search"
	"heldout5/store"
)

// Server serves the API.
type Server struct {
	orders        *orders.Service
	search        *search.Client
	http          *clients.HTTP
	refundsURL    string
	loyaltyURL    string
	notifyURL     string
	fulfilmentURL string
}

// Config holds the addresses of the services the API calls.
type Config struct {
	RefundsURL    string
	LoyaltyURL    string
	NotifyURL     string
	FulfilmentURL string
}

// heldout: clean — constructor
func NewServer(o *orders.Service, s *search.Client, hc *clients.HTTP, cfg Config) *Server {
	return &Server{
		orders:        o,
		search:        s,
		http:          hc,
		refundsURL:    cfg.RefundsURL,
		loyaltyURL:    cfg.LoyaltyURL,
		notifyURL:     cfg.NotifyURL,
		fulfilmentURL: cfg.FulfilmentURL,
	}
}

// Routes returns the API's handler.
//
// heldout: clean — registers handlers
func (s *Server) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/checkout", s.handleCheckout)
	mux.HandleFunc("POST /v1/refunds", s.handleRefund)
	mux.HandleFunc("POST /v1/captures", s.handleCapture)
	mux.HandleFunc("POST /v1/loyalty/points", s.handleLoyalty)
	mux.HandleFunc("POST /v1/loyalty/preview", s.handleLoyaltyPreview)
	mux.HandleFunc("POST /admin/webhooks/replay", s.handleReplay)
	mux.HandleFunc("POST /admin/messages/resend", s.handleResend)
	return mux
}

// handleCheckout places the order and asks fulfilment to pick it.
//
// heldout: clean — calls orders.PlaceOrder and clients.PostJSON, whose layers are reported inside them; nothing here hedges or retries
func (s *Server) handleCheckout(w http.ResponseWriter, r *http.Request) {
	var o store.Order
	if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.orders.PlaceOrder(r.Context(), o); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := clients.PostJSON(r.Context(), s.fulfilmentURL+"/v1/picks", map[string]string{"order_id": o.ID}); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// sendRetried sends req with the plain client, three attempts.
//
// heldout: clean — retry-go around the send of a request it is given: its callers are reported
func (s *Server) sendRetried(ctx context.Context, req *http.Request) (*http.Response, error) {
	return retrygo.DoWithData(func() (*http.Response, error) {
		return s.http.Plain.Do(req.Clone(ctx))
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}
