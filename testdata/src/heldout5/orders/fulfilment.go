package orders

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"heldout5/clients"
	"heldout5/store"
)

// RequestPickup asks the fulfilment service to book a courier for the
// order. The fulfilment API is slow at peak, so the call is hedged.
//
// heldout: hedgeidem — POST without a key through the *http.Client clients.NewHedged returns (a hedgedhttp.NewClient of 3 copies built in another package)
func (s *Service) RequestPickup(ctx context.Context, fulfilmentURL string, o store.Order) (string, error) {
	hc, err := clients.NewHedged(120 * time.Millisecond)
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(map[string]any{"order_id": o.ID, "customer_id": o.CustomerID})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fulfilmentURL+"/v1/pickups", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("request pickup for %s: %s", o.ID, resp.Status)
	}
	var out struct {
		PickupID string `json:"pickup_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.PickupID, nil
}
