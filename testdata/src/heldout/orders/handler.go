// Package orders serves the order endpoints of the API.
package orders

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os/exec"
	"strconv"
	"time"

	"heldout/internal/httpx"
	"heldout/inventory"
	"heldout/inventory/localcache"
	"heldout/notify"
	"heldout/orders/store"
	"heldout/payments"
)

type Handler struct {
	store *store.Store
	pay   *payments.Client
	inv   *inventory.Client
	stock *localcache.Cache
	mail  *notify.Mailer
	sms   *notify.SMSGateway
}

// heldout: clean — constructor
func NewHandler(s *store.Store, pay *payments.Client, inv *inventory.Client, stock *localcache.Cache, mail *notify.Mailer, sms *notify.SMSGateway) *Handler {
	return &Handler{store: s, pay: pay, inv: inv, stock: stock, mail: mail, sms: sms}
}

// heldout: clean — routes behind the 8s timeout middleware
func (h *Handler) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders", h.createOrder)
	mux.HandleFunc("GET /orders", h.listOrders)
	mux.HandleFunc("GET /orders/stats", h.stats)
	mux.HandleFunc("GET /orders/{id}", h.getOrder)
	mux.HandleFunc("HEAD /orders/{id}", h.headOrder)
	mux.HandleFunc("POST /orders/archive", h.archive)
	mux.HandleFunc("POST /orders/{id}/cancel", h.cancelOrder)
	mux.HandleFunc("POST /orders/{id}/ship", h.shipOrder)
	mux.HandleFunc("GET /orders/{id}/invoice.pdf", h.invoicePDF)
	return httpx.TimeoutMiddleware(8*time.Second, mux)
}

type createReq struct {
	Customer string           `json:"customer"`
	Email    string           `json:"email"`
	Token    string           `json:"token"`
	Items    []inventory.Item `json:"items"`
}

// heldout: clean — every call gets r.Context(); the confirmation mail is detached with WithoutCancel on a client with a Timeout
func (h *Handler) createOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var req createReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Items) != 1 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	it := req.Items[0]
	price, err := h.inv.Price(ctx, it.SKU)
	if err != nil {
		http.Error(w, "pricing unavailable", http.StatusBadGateway)
		return
	}
	if err := h.inv.ReserveAll(ctx, req.Items); err != nil {
		http.Error(w, "out of stock", http.StatusConflict)
		return
	}
	o := store.Order{ID: fmt.Sprintf("ord_%d", time.Now().UnixNano()), Customer: req.Customer, SKU: it.SKU, Qty: it.Qty, TotalCt: price * int64(it.Qty)}
	if err := h.store.Create(ctx, o); err != nil {
		log.Printf("create order: %v", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	ch, err := h.pay.Charge(ctx, payments.ChargeRequest{Customer: req.Customer, AmountCt: o.TotalCt, Currency: "EUR", Token: req.Token})
	if err != nil {
		http.Error(w, "payment failed", http.StatusPaymentRequired)
		return
	}
	if err := h.store.SetCharge(ctx, o.ID, ch.ID); err != nil {
		log.Printf("order %s: set charge: %v", o.ID, err)
	}
	h.mail.SendAsync(ctx, notify.Message{To: req.Email, Subject: "Order " + o.ID, Template: "order-confirmation"})
	httpx.WriteJSON(w, http.StatusCreated, o)
}

// heldout: clean — passes r.Context() (the db.Query defect is inside store.ListByCustomer)
func (h *Handler) listOrders(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	list, err := h.store.ListByCustomer(r.Context(), r.URL.Query().Get("customer"), limit)
	if err != nil {
		log.Printf("list orders: %v", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, list)
}

// heldout: ctxdrop — store.CountPending takes no context and runs db.QueryRow: r.Context() is dropped
func (h *Handler) stats(w http.ResponseWriter, r *http.Request) {
	n, err := h.store.CountPending()
	if err != nil {
		log.Printf("stats: %v", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]int{"pending": n})
}

// heldout: clean — r.Context() to Postgres; the stock lookup is local SQLite
func (h *Handler) getOrder(w http.ResponseWriter, r *http.Request) {
	o, err := h.store.Get(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	qty, known, _ := h.stock.Lookup(r.Context(), o.SKU)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"order": o, "in_stock": known && qty > 0})
}

// heldout: ctxdrop — store.Exists makes its own context.Background(): r.Context() is dropped
func (h *Handler) headOrder(w http.ResponseWriter, r *http.Request) {
	ok, err := h.store.Exists(r.PathValue("id"))
	switch {
	case err != nil:
		w.WriteHeader(http.StatusInternalServerError)
	case !ok:
		w.WriteHeader(http.StatusNotFound)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// archive lets ops trigger the archive job by hand.
//
// heldout: ctxdrop — store.ArchiveOlderThan makes its own 30s root; called from a handler the request's deadline and cancellation are lost
func (h *Handler) archive(w http.ResponseWriter, r *http.Request) {
	days, err := strconv.Atoi(r.FormValue("days"))
	if err != nil || days < 30 {
		http.Error(w, "days must be at least 30", http.StatusBadRequest)
		return
	}
	n, err := h.store.ArchiveOlderThan(time.Duration(days) * 24 * time.Hour)
	if err != nil {
		log.Printf("archive: %v", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]int64{"archived": n})
}

// heldout: ctxdrop — a fresh WithTimeout(context.Background(), 5s) in a handler replaces r.Context() for the store and the processor
func (h *Handler) cancelOrder(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	id := r.PathValue("id")
	o, err := h.store.Get(ctx, id)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if err := h.store.Cancel(ctx, id); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if o.ChargeID != "" {
		if err := h.pay.Void(ctx, o.ChargeID); err != nil {
			log.Printf("order %s: void %s: %v", id, o.ChargeID, err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// heldout: clean — store gets r.Context(); the shipping notice is detached with WithoutCancel on purpose and its work is bounded
func (h *Handler) shipOrder(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	tracking := r.FormValue("tracking")
	if err := h.store.MarkShipped(r.Context(), id, tracking); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	o, err := h.store.Get(r.Context(), id)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	go h.notifyShipped(context.WithoutCancel(r.Context()), *o, tracking)
	w.WriteHeader(http.StatusAccepted)
}

// heldout: clean — mail with the given ctx on a client with Timeout; sms.Notify takes ctx (its dial defect is inside notify)
func (h *Handler) notifyShipped(ctx context.Context, o store.Order, tracking string) {
	msg := notify.Message{To: o.Customer, Subject: "Your order is on its way", Body: "Tracking: " + tracking}
	if err := h.mail.Send(ctx, msg); err != nil {
		log.Printf("order %s: shipping mail: %v", o.ID, err)
	}
	if err := h.sms.Notify(ctx, o.Customer, "Shipped: "+tracking); err != nil {
		log.Printf("order %s: shipping sms: %v", o.ID, err)
	}
}

// heldout: ctxdrop — exec.Command in a handler: the renderer keeps running after the client goes away (CommandContext exists)
func (h *Handler) invoicePDF(w http.ResponseWriter, r *http.Request) {
	o, err := h.store.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	html := fmt.Sprintf("<h1>Invoice %s</h1><p>%d x %s</p><p>Total %.2f EUR</p>", o.ID, o.Qty, o.SKU, float64(o.TotalCt)/100)
	cmd := exec.Command("wkhtmltopdf", "--quiet", "-", "-")
	cmd.Stdin = bytes.NewBufferString(html)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		log.Printf("invoice %s: %v", o.ID, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Write(out.Bytes())
}
