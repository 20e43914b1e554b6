// Package dispatch is the shipment workflow: planning a shipment, booking it
// with a carrier, rerouting, delivery and cancellation. It ties the store,
// the carrier gateway, the mapping vendor and the ledger together.
package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
	"github.com/resilvet/resilvet/runtime/retry"

	"heldout4/billing"
	"heldout4/carrier"
	"heldout4/geo"
	"heldout4/retryx"
	"heldout4/store"
)

const (
	bookAttempts   = 3
	perKiloCents   = 42
	deliveryPolicy = "delivery"
)

var (
	completePolicy = &retry.Policy{MaxAttempts: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: 2 * time.Second}
	reassignPolicy = &retry.Policy{MaxAttempts: 2, BaseDelay: 250 * time.Millisecond, MaxDelay: time.Second}
)

// ErrNoQuote is returned when no carrier serves the lane.
var ErrNoQuote = errors.New("dispatch: no carrier quoted")

// Plan is the chosen way to move a shipment.
type Plan struct {
	From, To geo.Point
	Quote    carrier.Quote
}

// Service runs the shipment workflow.
type Service struct {
	store    *store.Store
	carriers *carrier.Client
	geo      *geo.Client
	billing  *billing.Client
	log      *log.Logger
	attempts int
}

// NewService wires the workflow.
//
// heldout: clean — constructor
func NewService(st *store.Store, cc *carrier.Client, gc *geo.Client, bc *billing.Client, logger *log.Logger) *Service {
	return &Service{store: st, carriers: cc, geo: gc, billing: bc, log: logger, attempts: bookAttempts}
}

// Plan geocodes both ends of a shipment and picks the cheapest quote.
//
// heldout: clean — calls retrying clients once each, no layer of its own
func (s *Service) Plan(ctx context.Context, sh *store.Shipment) (*Plan, error) {
	from, err := s.geo.Geocode(ctx, sh.Origin)
	if err != nil {
		return nil, fmt.Errorf("dispatch: origin: %w", err)
	}
	to, err := s.geo.Geocode(ctx, sh.Destination)
	if err != nil {
		return nil, fmt.Errorf("dispatch: destination: %w", err)
	}
	quotes, err := s.carriers.Quote(ctx, carrier.QuoteRequest{
		FromLat: from.Lat, FromLng: from.Lng, ToLat: to.Lat, ToLng: to.Lng, WeightGrams: sh.WeightGrams,
	})
	if err != nil {
		return nil, err
	}
	q, ok := cheapest(quotes, func(q carrier.Quote) int64 { return q.PriceCents })
	if !ok {
		return nil, ErrNoQuote
	}
	return &Plan{From: from, To: to, Quote: q}, nil
}

// heldout: clean — loop over items, no calls that fail
func cheapest[T any](items []T, price func(T) int64) (T, bool) {
	var (
		best  T
		found bool
		min   int64
	)
	for _, it := range items {
		if p := price(it); !found || p < min {
			best, min, found = it, p, true
		}
	}
	return best, found
}

// Book plans and books a shipment, then records the booking.
//
// heldout: retrystack — nested: retryx.Do with s.attempts (3) around carrier.Client.Book, which retries 3×5
func (s *Service) Book(ctx context.Context, id string) (*carrier.Booking, error) {
	sh, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	plan, err := s.Plan(ctx, sh)
	if err != nil {
		return nil, err
	}
	var b *carrier.Booking
	err = retryx.Do(ctx, s.attempts, func(ctx context.Context) error {
		var err error
		b, err = s.carriers.Book(ctx, plan.Quote, sh.ID)
		if errors.Is(err, carrier.ErrRateExpired) {
			return retryx.Permanent(err)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, s.store.UpdateStatus(ctx, sh.ID, "booked")
}

// Requote fetches fresh quotes for a shipment.
//
// heldout: clean — retryx.Do given 1 is no layer; carrier.Quote keeps its own retries
func (s *Service) Requote(ctx context.Context, sh *store.Shipment, from, to geo.Point) ([]carrier.Quote, error) {
	// One attempt: the gateway client retries already. Going through
	// retryx keeps Permanent handling the same as Book.
	return retryx.Value(ctx, 1, func(ctx context.Context) ([]carrier.Quote, error) {
		return s.carriers.Quote(ctx, carrier.QuoteRequest{
			FromLat: from.Lat, FromLng: from.Lng, ToLat: to.Lat, ToLng: to.Lng, WeightGrams: sh.WeightGrams,
		})
	})
}

// Confirm charges the customer for a booked shipment.
//
// heldout: clean — backoff/v4 with WithMaxRetries(b, 0) is one attempt, no layer over Get and Charge
func (s *Service) Confirm(ctx context.Context, id string) (*billing.Receipt, error) {
	var r *billing.Receipt
	op := func() error {
		sh, err := s.store.Get(ctx, id)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return backoff.Permanent(err)
			}
			return err
		}
		r, err = s.billing.Charge(ctx, billing.Charge{
			Account:        sh.Customer,
			ShipmentID:     sh.ID,
			AmountCents:    sh.WeightGrams / 1000 * perKiloCents,
			IdempotencyKey: "confirm/" + sh.ID,
		})
		return err
	}
	// Max retries 0: was 2 until the ledger incident of March; the store and
	// the ledger client retry on their own.
	b := backoff.WithMaxRetries(backoff.WithContext(backoff.NewConstantBackOff(time.Second), ctx), 0)
	if err := backoff.Retry(op, b); err != nil {
		return nil, err
	}
	return r, nil
}

// NextPickup waits for the next pickup a depot worker can take.
//
// heldout: retrystack — nested: backoff/v4 RetryNotify without a retry limit around store.ClaimNext (5 attempts)
func (s *Service) NextPickup(ctx context.Context, worker string) (*store.Pickup, error) {
	var p *store.Pickup
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 500 * time.Millisecond
	err := backoff.RetryNotify(func() error {
		var err error
		p, err = s.store.ClaimNext(ctx, worker)
		return err
	}, backoff.WithContext(b, ctx), func(err error, d time.Duration) {
		if !errors.Is(err, store.ErrNoWork) {
			s.log.Printf("dispatch: claim pickup for %s: %v (next in %s)", worker, err, d)
		}
	})
	return p, err
}

// Reroute sends a shipment to a new destination and records the change as
// a tracking event.
//
// heldout: retrystack — nested: backoff/v5 Retry with WithMaxTries(3) around store.AppendEvent (4 attempts)
func (s *Service) Reroute(ctx context.Context, id, destination string) error {
	if _, err := s.geo.Geocode(ctx, destination); err != nil {
		return fmt.Errorf("dispatch: reroute %s: %w", id, err)
	}
	_, err := backoffv5.Retry(ctx, func() (struct{}, error) {
		return struct{}{}, s.store.AppendEvent(ctx, store.Event{
			ShipmentID: id,
			Code:       "RR",
			Location:   destination,
			At:         time.Now(),
		})
	}, backoffv5.WithBackOff(backoffv5.NewExponentialBackOff()), backoffv5.WithMaxTries(3))
	return err
}

// CompleteDelivery marks a shipment delivered and charges the delivery fee.
//
// heldout: clean — runtime retry.Do around MarkDelivered and Charge, both runtime layers without AllowNested
func (s *Service) CompleteDelivery(ctx context.Context, sh *store.Shipment, at time.Time) error {
	return retry.Do(ctx, completePolicy, func(ctx context.Context) error {
		if err := s.store.MarkDelivered(ctx, sh.ID, at); err != nil {
			return err
		}
		_, err := s.billing.Charge(ctx, billing.Charge{
			Account:        sh.Customer,
			ShipmentID:     sh.ID,
			AmountCents:    sh.WeightGrams / 1000 * perKiloCents,
			IdempotencyKey: deliveryPolicy + "/" + sh.ID,
		})
		return err
	})
}

// Cancel cancels the carrier booking and refunds the customer.
//
// heldout: retrystack — nested: retry-go Attempts(3) around billing.Refund; a runtime layer inside another library's layer
func (s *Service) Cancel(ctx context.Context, id string) error {
	sh, err := s.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if sh.BookingID != "" {
		if err := s.carriers.Cancel(ctx, sh.BookingID); err != nil {
			return err
		}
	}
	return retrygo.Do(func() error {
		return s.billing.Refund(ctx, billing.Refund{
			Account:     sh.Customer,
			ShipmentID:  sh.ID,
			AmountCents: sh.WeightGrams / 1000 * perKiloCents,
		})
	}, retrygo.Attempts(3), retrygo.Context(ctx), retrygo.Delay(time.Second))
}

// RefreshTracking pulls new scans for each shipment and stores them. A
// shipment whose carrier call fails is skipped until the next round.
//
// heldout: clean — loop over items (ids, then events); nothing goes round because a call failed
func (s *Service) RefreshTracking(ctx context.Context, shipments []store.Shipment) error {
	for _, sh := range shipments {
		if sh.TrackingNo == "" {
			continue
		}
		evs, err := s.carriers.Track(ctx, sh.TrackingNo)
		if err != nil {
			s.log.Printf("dispatch: track %s: %v", sh.ID, err)
			continue
		}
		for _, ev := range evs {
			if !ev.At.After(sh.UpdatedAt) {
				continue
			}
			if err := s.store.AppendEvent(ctx, store.Event{ShipmentID: sh.ID, Code: ev.Code, Location: ev.Location, At: ev.At}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Dispatch plans a newly created shipment. The mapping vendor is flaky in
// the morning peak, so planning gets a second chance.
//
// heldout: retrystack — nested (loop around Plan, which goes through retrying clients) and sleep (time.Sleep with ctx)
func (s *Service) Dispatch(ctx context.Context, id string) (*Plan, error) {
	sh, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	var plan *Plan
	for attempt := 0; attempt < 2; attempt++ {
		plan, err = s.Plan(ctx, sh)
		if err == nil {
			break
		}
		if errors.Is(err, ErrNoQuote) || errors.Is(err, geo.ErrNoMatch) {
			return nil, err
		}
		s.log.Printf("dispatch: plan %s: %v", id, err)
		time.Sleep(2 * time.Second)
	}
	if err != nil {
		return nil, err
	}
	return plan, s.store.UpdateStatus(ctx, id, "planned")
}

// Reassign re-geocodes a shipment's destination after an address
// correction from the customer.
//
// heldout: retrystack — nested: runtime retry.Do around geo.Geocode's retry-go layer (not a runtime layer, so it multiplies)
func (s *Service) Reassign(ctx context.Context, id, corrected string) (geo.Point, error) {
	return retry.DoValue(ctx, reassignPolicy, func(ctx context.Context) (geo.Point, error) {
		p, err := s.geo.Geocode(ctx, corrected)
		if err != nil {
			return geo.Point{}, err
		}
		ok, err := s.geo.InFence(ctx, "home", p)
		if err != nil {
			return geo.Point{}, err
		}
		if !ok {
			return geo.Point{}, fmt.Errorf("dispatch: %s is outside the delivery area", corrected)
		}
		return p, nil
	})
}
