// Package api is the public HTTP API used by the customer portal and the
// carriers' delivery callbacks.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/resilvet/resilvet/runtime/retry"

	"heldout4/billing"
	"heldout4/carrier"
	"heldout4/dispatch"
	"heldout4/geo"
	"heldout4/store"
)

var (
	createPolicy = &retry.Policy{MaxAttempts: 2, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	// Copied from the ledger's policy when the callback was written.
	callbackPolicy = &retry.Policy{MaxAttempts: 3, BaseDelay: 200 * time.Millisecond, MaxDelay: 2 * time.Second, AllowNested: true}
)

// Server is the API server.
type Server struct {
	*http.ServeMux
	store   *store.Store
	svc     *dispatch.Service
	geo     *geo.Client
	billing *billing.Client
	http    *http.Client
	log     *log.Logger
}

// NewServer registers the routes.
//
// heldout: clean — constructor and route table
func NewServer(st *store.Store, svc *dispatch.Service, gc *geo.Client, bc *billing.Client, logger *log.Logger) *Server {
	s := &Server{
		ServeMux: http.NewServeMux(),
		store:    st,
		svc:      svc,
		geo:      gc,
		billing:  bc,
		http:     &http.Client{Timeout: 10 * time.Second},
		log:      logger,
	}
	s.HandleFunc("POST /v1/shipments", s.createShipment)
	s.HandleFunc("GET /v1/shipments/{id}", s.getShipment)
	s.HandleFunc("POST /v1/shipments/{id}/book", s.bookShipment)
	s.HandleFunc("GET /v1/shipments/{id}/quote", s.quote)
	s.HandleFunc("POST /v1/shipments/{id}/cancel", s.cancelShipment)
	s.HandleFunc("GET /v1/shipments/{id}/label", s.proxyLabel)
	s.HandleFunc("POST /v1/addresses/validate", s.validateAddresses)
	s.HandleFunc("GET /v1/accounts/{id}/balance", s.balance)
	s.HandleFunc("GET /v1/eta", s.eta)
	s.HandleFunc("POST /carrier/callback", s.carrierCallback)
	return s
}

// heldout: clean — encodes a response, no loop
func writeJSON(w http.ResponseWriter, code int, v any) {
	if err, ok := v.(error); ok {
		v = map[string]string{"error": err.Error()}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// heldout: retrystack — nested: runtime retry.Do around store.Create's hand-written loop (5), which is not a runtime layer
func (s *Server) createShipment(w http.ResponseWriter, r *http.Request) {
	var sh store.Shipment
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&sh); err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	var id string
	err := retry.Do(r.Context(), createPolicy, func(ctx context.Context) error {
		var err error
		id, err = s.store.Create(ctx, &sh)
		return err
	})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// heldout: retrystack — nested: a 2-attempt loop around store.Get, which retries itself
func (s *Server) getShipment(w http.ResponseWriter, r *http.Request) {
	var (
		sh  *store.Shipment
		err error
	)
	// A read replica switchover shows up as one failed read; read again.
	for i := 0; i < 2; i++ {
		if sh, err = s.store.Get(r.Context(), r.PathValue("id")); err == nil || errors.Is(err, store.ErrNotFound) {
			break
		}
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeJSON(w, http.StatusNotFound, err)
	case err != nil:
		writeJSON(w, http.StatusBadGateway, err)
	default:
		writeJSON(w, http.StatusOK, sh)
	}
}

// heldout: retrystack — nested: a 2-attempt loop around dispatch.Service.Book, itself a stack of retries
func (s *Server) bookShipment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var (
		b   *carrier.Booking
		err error
	)
	for attempt := 0; attempt < 2; attempt++ {
		b, err = s.svc.Book(ctx, r.PathValue("id"))
		if err == nil || !errors.Is(err, carrier.ErrRateExpired) {
			break
		}
		// The rate expired between quote and booking: plan again.
		t := time.NewTimer(200 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			writeJSON(w, http.StatusGatewayTimeout, ctx.Err())
			return
		case <-t.C:
		}
	}
	if err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// heldout: clean — retry-go with Attempts(1) is no layer around dispatch.Service.Plan
func (s *Server) quote(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sh, err := s.store.Get(ctx, r.PathValue("id"))
	if err != nil {
		writeJSON(w, http.StatusNotFound, err)
		return
	}
	plan, err := retrygo.DoWithData(func() (*dispatch.Plan, error) {
		p, err := s.svc.Plan(ctx, sh)
		if errors.Is(err, dispatch.ErrNoQuote) {
			return nil, retrygo.Unrecoverable(err)
		}
		return p, err
	}, retrygo.Attempts(1), retrygo.Context(ctx), retrygo.LastErrorOnly(true))
	if err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	writeJSON(w, http.StatusOK, plan)
}

// heldout: clean — one call into the workflow, no layer here
func (s *Server) cancelShipment(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Cancel(r.Context(), r.PathValue("id")); err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// heldout: clean — loop over the submitted addresses, each validated once
func (s *Server) validateAddresses(w http.ResponseWriter, r *http.Request) {
	var addrs []string
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&addrs); err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	type result struct {
		Address string     `json:"address"`
		Point   *geo.Point `json:"point,omitempty"`
		Error   string     `json:"error,omitempty"`
	}
	out := make([]result, 0, len(addrs))
	for _, a := range addrs {
		p, err := s.geo.Validate(r.Context(), a)
		if err != nil {
			out = append(out, result{Address: a, Error: err.Error()})
			continue
		}
		out = append(out, result{Address: a, Point: &p})
	}
	writeJSON(w, http.StatusOK, out)
}

// heldout: retrystack — nested: backoff/v4 WithMaxRetries(b, 2) around billing.Client.Balance, a runtime layer inside another library's layer
func (s *Server) balance(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2), ctx)
	bal, err := backoff.RetryWithData(func() (int64, error) {
		return s.billing.Balance(ctx, r.PathValue("id"))
	}, b)
	if err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"balance_cents": bal})
}

// heldout: retrystack — nested: retry-go Attempts(2) around geo.Client.ETA, which goes through Route's 3-attempt loop
func (s *Server) eta(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var from, to geo.Point
	q := r.URL.Query()
	if err := json.Unmarshal([]byte(q.Get("from")), &from); err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	if err := json.Unmarshal([]byte(q.Get("to")), &to); err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	d, err := retrygo.DoWithData(func() (time.Duration, error) {
		return s.geo.ETA(ctx, from, to)
	}, retrygo.Attempts(2), retrygo.Context(ctx))
	if err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"eta": d.String()})
}

// heldout: clean — runtime retry.Do around CompleteDelivery's runtime layers; only the inner policies' AllowNested would count
func (s *Server) carrierCallback(w http.ResponseWriter, r *http.Request) {
	var cb struct {
		ShipmentID string    `json:"shipment_id"`
		Code       string    `json:"code"`
		At         time.Time `json:"at"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&cb); err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	if cb.Code != "DL" {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	sh, err := s.store.Get(r.Context(), cb.ShipmentID)
	if err != nil {
		writeJSON(w, http.StatusNotFound, err)
		return
	}
	err = retry.Do(r.Context(), callbackPolicy, func(ctx context.Context) error {
		return s.svc.CompleteDelivery(ctx, sh, cb.At)
	})
	if err != nil {
		// The carrier calls back again on a non-2xx answer.
		writeJSON(w, http.StatusServiceUnavailable, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// proxyLabel streams a booking's label from the carrier's label CDN.
//
// heldout: retrystack — hot: GET to the label CDN retried at once, nothing waits between tries
func (s *Server) proxyLabel(w http.ResponseWriter, r *http.Request) {
	u := "https://labels.carrier-gw.internal/" + r.PathValue("id") + ".pdf"
	var (
		resp *http.Response
		err  error
	)
	for try := 0; try < 3; try++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(r.Context(), http.MethodGet, u, nil)
		if err != nil {
			break
		}
		resp, err = s.http.Do(req)
		if err == nil {
			break
		}
	}
	if err != nil {
		writeJSON(w, http.StatusBadGateway, err)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/pdf")
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}
