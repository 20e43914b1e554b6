package dispatch

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"heldout2/platform"
	"heldout2/pricing"
	"heldout2/routing"
	"heldout2/webhooks"
)

type rideRequest struct {
	RiderID string        `json:"rider_id"`
	City    string        `json:"city"`
	Zone    string        `json:"zone"`
	Product string        `json:"product"`
	Pickup  routing.Point `json:"pickup"`
	Dropoff routing.Point `json:"dropoff"`
	QuoteID string        `json:"quote_id"`
}

// handleQuote prices a trip for the rider app.
// heldout: clean — r.Context() carries the deadline set by the Deadline middleware
func (s *Server) handleQuote(w http.ResponseWriter, r *http.Request) {
	var req rideRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	q, err := s.pricing.Quote(r.Context(), &pricing.QuoteRequest{
		RiderID: req.RiderID, City: req.City, Zone: req.Zone, Product: req.Product, From: req.Pickup, To: req.Dropoff,
	})
	if err != nil {
		s.log.WarnContext(r.Context(), "quote failed", "err", err)
		http.Error(w, "pricing unavailable", http.StatusServiceUnavailable)
		return
	}
	s.quotes.Store(q.QuoteID, q)
	writeJSON(w, http.StatusOK, q)
}

// quoteWithRetry asks pricing for a quote, up to three times.
// heldout: notimeout — once ctx has expired the loop swaps in context.Background(), so later attempts reach the Quote RPC with no deadline
func (s *Server) quoteWithRetry(ctx context.Context, req *pricing.QuoteRequest) (*pricing.QuoteResponse, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if ctx.Err() != nil {
			// The rider's request is gone, but a quote computed now is
			// still cached for the app's automatic retry.
			ctx = context.Background()
		}
		q, err := s.pricing.Quote(ctx, req)
		if err == nil {
			s.quotes.Store(q.QuoteID, q)
			return q, nil
		}
		lastErr = err
		time.Sleep(time.Duration(100*(attempt+1)) * time.Millisecond)
	}
	return nil, fmt.Errorf("quote after 3 attempts: %w", lastErr)
}

// handleRequestRide books a ride: quote, candidate drivers, assignment.
// heldout: clean — everything synchronous uses r.Context(); the partner fan-out is detached on purpose and bounded inside Fanout
func (s *Server) handleRequestRide(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var req rideRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	q, err := s.quoteWithRetry(ctx, &pricing.QuoteRequest{
		RiderID: req.RiderID, City: req.City, Zone: req.Zone, Product: req.Product, From: req.Pickup, To: req.Dropoff,
	})
	if err != nil {
		http.Error(w, "pricing unavailable", http.StatusServiceUnavailable)
		return
	}
	drivers, err := s.locs.Nearby(ctx, req.Pickup.Lat, req.Pickup.Lng, 3000)
	if err != nil || len(drivers) == 0 {
		http.Error(w, "no drivers nearby", http.StatusConflict)
		return
	}
	positions := make([]routing.Point, len(drivers))
	for i, d := range drivers {
		positions[i] = routing.Point{Lat: d.Lat, Lng: d.Lng}
	}
	s.eta.Prefetch(ctx, positions, req.Pickup)
	pick, _, err := s.eta.FirstETA(ctx, positions, req.Pickup, 8*time.Minute)
	if err != nil {
		http.Error(w, "no driver can reach you soon enough", http.StatusConflict)
		return
	}
	driver := drivers[pick]

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	defer tx.Rollback()
	var tripID string
	err = tx.QueryRowContext(ctx,
		`INSERT INTO trips (rider_id, driver_id, quote_id, fare_cents, status) VALUES ($1, $2, $3, $4, 'assigned') RETURNING id`,
		req.RiderID, driver.DriverID, q.QuoteID, q.FareCents).Scan(&tripID)
	if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	if _, err := tx.ExecContext(ctx, `UPDATE drivers SET state = 'en_route' WHERE id = $1 AND state = 'available'`, driver.DriverID); err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}

	// Partners are told about the assignment on a detached context: the
	// rider's request ends long before slow partners answer, and Fanout
	// puts its own bound on the whole delivery.
	evt := webhooks.Event{Type: "trip.assigned", ID: tripID, At: time.Now()}
	go s.hooks.Fanout(context.WithoutCancel(ctx), evt)
	s.bus.PublishAsync(ctx, platform.Event{Topic: "trip.assigned", Key: tripID, At: time.Now()})

	writeJSON(w, http.StatusCreated, map[string]any{"trip_id": tripID, "driver_id": driver.DriverID, "fare_cents": q.FareCents})
}

// handleCancelRide cancels a trip on the rider's behalf and releases the
// fare hold.
// heldout: ctxdrop notimeout — s.db.Exec ignores r.Context() (ctxdrop); the explained context.Background() reaches the ReleaseHold RPC with no deadline (notimeout)
func (s *Server) handleCancelRide(w http.ResponseWriter, r *http.Request) {
	tripID := r.PathValue("id")
	riderID := r.Header.Get("X-Rider-ID")
	res, err := s.db.Exec(
		`UPDATE trips SET status = 'cancelled', cancelled_at = now() WHERE id = $1 AND rider_id = $2 AND status IN ('requested', 'assigned')`,
		tripID, riderID)
	if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		http.Error(w, "trip cannot be cancelled", http.StatusConflict)
		return
	}
	var quoteID string
	if err := s.db.QueryRowContext(r.Context(), `SELECT quote_id FROM trips WHERE id = $1`, tripID).Scan(&quoteID); err == nil {
		// Release the hold with a fresh context because it must happen even
		// if the rider's app has already disconnected.
		if _, err := s.pricing.ReleaseHold(context.Background(), &pricing.HoldRequest{QuoteID: quoteID, RiderID: riderID}); err != nil {
			s.log.Warn("release hold failed", "quote", quoteID, "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleAssign lets an ops agent force-assign a driver to a trip.
// heldout: ctxdrop — platform.WithBudget mints a fresh (bounded) root in an HTTP handler, so the request's deadline and cancellation are lost
func (s *Server) handleAssign(w http.ResponseWriter, r *http.Request) {
	var body struct {
		TripID   string `json:"trip_id"`
		DriverID string `json:"driver_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ctx, cancel := platform.WithBudget(5 * time.Second)
	defer cancel()
	res, err := s.db.ExecContext(ctx,
		`UPDATE trips SET driver_id = $1, status = 'assigned', assigned_by = 'ops' WHERE id = $2 AND status <> 'completed'`,
		body.DriverID, body.TripID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		http.Error(w, "trip not found or completed", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleReportIssue files a rider's support issue with the support
// desk's intake hook and returns once it is accepted.
// heldout: ctxdrop — calls platform.PostJSON, which does an http.Post with no context, while r.Context() is in scope
func (s *Server) handleReportIssue(w http.ResponseWriter, r *http.Request) {
	var issue struct {
		TripID   string `json:"trip_id"`
		Category string `json:"category"`
		Text     string `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&issue); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	issue.Text = fmt.Sprintf("[rider %s] %s", r.Header.Get("X-Rider-ID"), issue.Text)
	if err := platform.PostJSON(s.supportURL, issue); err != nil {
		s.log.ErrorContext(r.Context(), "support intake failed", "err", err)
		http.Error(w, "could not file the issue, try again", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// handleTripReceipt returns the receipt and pushes a copy to the rider's
// phone.
// heldout: notimeout — the fire-and-forget push gets context.Background() and PushClient's http.Client has no Timeout
func (s *Server) handleTripReceipt(w http.ResponseWriter, r *http.Request) {
	tripID := r.PathValue("id")
	var rc struct {
		TripID      string `json:"trip_id"`
		FareCents   int64  `json:"fare_cents"`
		DeviceToken string `json:"-"`
	}
	err := s.db.QueryRowContext(r.Context(),
		`SELECT t.id, t.fare_cents, r.device_token FROM trips t JOIN riders r ON r.id = t.rider_id WHERE t.id = $1`,
		tripID).Scan(&rc.TripID, &rc.FareCents, &rc.DeviceToken)
	if errors.Is(err, sql.ErrNoRows) {
		http.NotFound(w, r)
		return
	} else if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	msg := PushMessage{Title: "Your receipt", Body: fmt.Sprintf("Trip %s: €%.2f", rc.TripID, float64(rc.FareCents)/100)}
	go s.push.Send(context.Background(), rc.DeviceToken, msg)
	writeJSON(w, http.StatusOK, rc)
}

// handleZones lists the service zones; they change rarely, so they are
// loaded once per process.
// heldout: notimeout — the sync.Once initialiser queries Postgres with context.Background() and no deadline; every request waits on it
func (s *Server) handleZones(w http.ResponseWriter, r *http.Request) {
	s.zonesOnce.Do(func() {
		rows, err := s.db.QueryContext(context.Background(), `SELECT id, name, polygon FROM zones WHERE active ORDER BY name`)
		if err != nil {
			s.zonesErr = err
			return
		}
		defer rows.Close()
		for rows.Next() {
			var z Zone
			if err := rows.Scan(&z.ID, &z.Name, &z.Polygon); err != nil {
				s.zonesErr = err
				return
			}
			s.zones = append(s.zones, z)
		}
		s.zonesErr = rows.Err()
	})
	if s.zonesErr != nil {
		http.Error(w, "zones unavailable", http.StatusServiceUnavailable)
		return
	}
	writeJSON(w, http.StatusOK, s.zones)
}

// handleCompleteTrip marks a trip completed and writes the audit record
// after responding.
// heldout: notimeout — platform.Detach (WithoutCancel) drops the request's deadline and nothing bounds the audit INSERT again
func (s *Server) handleCompleteTrip(w http.ResponseWriter, r *http.Request) {
	tripID := r.PathValue("id")
	driverID := r.Header.Get("X-Driver-ID")
	res, err := s.db.ExecContext(r.Context(),
		`UPDATE trips SET status = 'completed', completed_at = now() WHERE id = $1 AND driver_id = $2 AND status = 'in_progress'`,
		tripID, driverID)
	if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		http.Error(w, "trip not in progress", http.StatusConflict)
		return
	}
	go s.audit(platform.Detach(r.Context()), "trip.completed", tripID, driverID)
	s.bus.PublishAsync(r.Context(), platform.Event{Topic: "trip.completed", Key: tripID, At: time.Now()})
	w.WriteHeader(http.StatusNoContent)
}

// audit appends to the audit log.
// heldout: clean — uses the ctx it is given
func (s *Server) audit(ctx context.Context, action, subject, actor string) {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO audit_log (action, subject, actor, at) VALUES ($1, $2, $3, now())`, action, subject, actor); err != nil {
		s.log.ErrorContext(ctx, "audit write failed", "action", action, "subject", subject, "err", err)
	}
}

// driverStatus serves the driver app's status screen (legacy gin handler).
// heldout: ctxdrop — context.TODO() passed to QueryRowContext while the *gin.Context (a context) is in scope
func (s *Server) driverStatus(c *gin.Context) (map[string]any, error) {
	id := c.Request.PathValue("id")
	var state string
	var updated time.Time
	err := s.db.QueryRowContext(context.TODO(),
		`SELECT state, updated_at FROM drivers WHERE id = $1`, id).Scan(&state, &updated)
	if err != nil {
		return nil, err
	}
	return map[string]any{"driver_id": id, "state": state, "updated_at": updated}, nil
}

// handleReady is the readiness probe: ready when the routing provider
// answers.
// heldout: clean — Healthy uses a client with a 3s Timeout; a plain bounded call, not a dropped context
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if !s.router.Healthy() {
		http.Error(w, "routing provider unavailable", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}
