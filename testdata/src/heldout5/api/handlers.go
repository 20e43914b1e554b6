package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"heldout5/clients"
)

// handleRefund forwards a refund to the refunds service.
//
// heldout: hedgeidem — passes a POST without an idempotency key to clients.Send, another package's helper that sends it in a retry loop (3 attempts)
func (s *Server) handleRefund(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, s.refundsURL+"/v1/refunds", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := clients.Send(r.Context(), s.http.Plain, req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// handleCapture forwards a capture under the client's idempotency key.
//
// heldout: clean — POST given to the retrying clients.Send after clients.SetIdempotencyKey, a function named for the key, on every path
func (s *Server) handleCapture(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		http.Error(w, "Idempotency-Key header required", http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, s.refundsURL+"/v1/captures", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	clients.SetIdempotencyKey(req, key)
	resp, err := clients.Send(r.Context(), s.http.Plain, req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// handleLoyalty credits loyalty points for a paid order.
//
// heldout: hedgeidem — clients.Do(ctx, 4, …) retries a closure calling http.Client.Post, which cannot carry a key
func (s *Server) handleLoyalty(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	err = clients.Do(r.Context(), 4, func(ctx context.Context) error {
		resp, err := s.http.Plain.Post(s.loyaltyURL+"/v1/points", "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("loyalty: %s", resp.Status)
		}
		return nil
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// handleLoyaltyPreview asks how many points an order would earn.
//
// heldout: clean — clients.Do given 1 attempt is no layer
func (s *Server) handleLoyaltyPreview(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var points json.RawMessage
	err = clients.Do(r.Context(), 1, func(ctx context.Context) error {
		resp, err := s.http.Plain.Post(s.loyaltyURL+"/v1/points/estimate", "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&points)
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(points)
}

// storedDelivery is a webhook delivery kept by the outbox.
type storedDelivery struct {
	Method string          `json:"method"`
	URL    string          `json:"url"`
	Body   json.RawMessage `json:"body"`
}

// handleReplay replays stored webhook deliveries with their recorded
// method.
//
// heldout: clean — requests built with a method read from the stored delivery (not a constant) and sent through the retrying clients.Send
func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	var deliveries []storedDelivery
	if err := json.NewDecoder(r.Body).Decode(&deliveries); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	replayed := 0
	for _, d := range deliveries {
		req, err := http.NewRequestWithContext(r.Context(), d.Method, d.URL, bytes.NewReader(d.Body))
		if err != nil {
			continue
		}
		resp, err := clients.Send(r.Context(), s.http.Plain, req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		replayed++
	}
	fmt.Fprintf(w, `{"replayed":%d}`, replayed)
}

// handleResend asks the notifications service to send a message again.
//
// heldout: hedgeidem — passes a POST without a key to sendRetried, a helper of the package that sends it through retry-go (3 attempts)
func (s *Server) handleResend(w http.ResponseWriter, r *http.Request) {
	msgID := r.URL.Query().Get("message_id")
	if msgID == "" {
		http.Error(w, "message_id required", http.StatusBadRequest)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, s.notifyURL+"/v1/messages/"+msgID+"/resend", nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := s.sendRetried(r.Context(), req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
}
