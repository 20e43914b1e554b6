package payments

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"

	"heldout/internal/httpx"
	"heldout/ledger"
)

// Service serves the /payments endpoints.
type Service struct {
	client       *Client
	ledger       ledger.LedgerClient
	fraud        ledger.FraudClient
	audit        *auditSink
	db           *sql.DB
	receiptsBase string

	// BankAddr is the settlement endpoint of the acquiring bank (host:port).
	BankAddr string
}

type AuditEvent struct {
	Kind     string `json:"kind"`
	Ref      string `json:"ref"`
	AmountCt int64  `json:"amount"`
}

type auditSink struct {
	url string
	hc  *http.Client
}

// heldout: clean — constructor; builds a client (without Timeout) but calls nothing
func newAuditSink(u string) *auditSink {
	return &auditSink{url: u, hc: &http.Client{}}
}

// heldout: clean — sends with the ctx its caller passes; the caller owns the bound
func (a *auditSink) Record(ctx context.Context, evt AuditEvent) error {
	body, _ := json.Marshal(evt)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		log.Printf("audit: %v", err)
		return err
	}
	return resp.Body.Close()
}

// DialLedger connects to the ledger service. Every unary call gets a 2s
// deadline from the interceptor.
//
// heldout: clean — grpc.NewClient does no I/O; connection gets a timeout interceptor
func DialLedger(target string) (ledger.LedgerClient, *grpc.ClientConn, error) {
	conn, err := grpc.NewClient(target,
		grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(2*time.Second)),
	)
	if err != nil {
		return nil, nil, err
	}
	return ledger.NewLedgerClient(conn), conn, nil
}

// heldout: clean — constructor, no call
func NewService(c *Client, lc ledger.LedgerClient, fc ledger.FraudClient, db *sql.DB, auditURL, receiptsBase string) *Service {
	return &Service{
		client:       c,
		ledger:       lc,
		fraud:        fc,
		audit:        newAuditSink(auditURL),
		db:           db,
		receiptsBase: receiptsBase,
	}
}

// heldout: clean — registers routes; no call
func (s *Service) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /payments/charges", s.HandleCharge)
	mux.HandleFunc("POST /payments/charges/{id}/capture", s.HandleCapture)
	mux.HandleFunc("POST /payments/charges/{id}/void", s.HandleVoid)
	mux.HandleFunc("POST /payments/charges/{id}/refund", s.HandleRefund)
	mux.HandleFunc("GET /payments/charges/{id}/receipt", s.HandleReceipt)
	mux.HandleFunc("GET /payments/balance/{account}", s.HandleBalance)
	mux.HandleFunc("POST /payments/charges/{id}/dispute", s.HandleDispute)
}

// heldout: notimeout — fire-and-forget audit goroutine gets context.Background() and the audit client has no Timeout
func (s *Service) HandleCharge(w http.ResponseWriter, r *http.Request) {
	var req ChargeRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	score, err := s.fraud.Score(r.Context(), &ledger.ScoreRequest{Customer: req.Customer, AmountCt: req.AmountCt})
	if err != nil {
		log.Printf("fraud score for %s: %v", req.Customer, err)
		http.Error(w, "fraud check unavailable", http.StatusBadGateway)
		return
	}
	if score.Risk > 0.9 {
		http.Error(w, "declined", http.StatusPaymentRequired)
		return
	}
	ch, err := s.client.Charge(r.Context(), req)
	if err != nil {
		log.Printf("charge: %v", err)
		http.Error(w, "payment failed", http.StatusBadGateway)
		return
	}
	// The audit trail must never slow the response down.
	go s.audit.Record(context.Background(), AuditEvent{Kind: "charge", Ref: ch.ID, AmountCt: req.AmountCt})
	httpx.WriteJSON(w, http.StatusCreated, ch)
}

// heldout: clean — detached ledger post in a goroutine, but the ledger connection's interceptor bounds it at 2s
func (s *Service) HandleCapture(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ch, err := s.client.Capture(r.Context(), id)
	if err != nil {
		log.Printf("capture %s: %v", id, err)
		http.Error(w, "capture failed", http.StatusBadGateway)
		return
	}
	amount, _ := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
	go func() {
		if _, err := s.ledger.PostEntry(context.Background(), &ledger.PostEntryRequest{
			Account: "receivables", AmountCt: amount, Ref: ch.ID,
		}); err != nil {
			log.Printf("ledger post for %s: %v", ch.ID, err)
		}
	}()
	httpx.WriteJSON(w, http.StatusOK, ch)
}

// heldout: ctxdrop — passes context.Background() to Client.Void while r.Context() is in scope
func (s *Service) HandleVoid(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.client.Void(context.Background(), id); err != nil {
		log.Printf("void %s: %v", id, err)
		http.Error(w, "void failed", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// heldout: clean — passes r.Context() (the defect is inside Client.Refund)
func (s *Service) HandleRefund(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	amount, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
	if err != nil || amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	if err := s.client.Refund(r.Context(), id, amount); err != nil {
		log.Printf("refund %s: %v", id, err)
		http.Error(w, "refund failed", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// heldout: ctxdrop — httpx.FetchBytes makes its own context.Background(), dropping r.Context()
func (s *Service) HandleReceipt(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	pdf, err := httpx.FetchBytes(s.receiptsBase + "/receipts/" + url.PathEscape(id) + ".pdf")
	if err != nil {
		log.Printf("receipt %s: %v", id, err)
		http.Error(w, "receipt unavailable", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Write(pdf)
}

// ReconcileLoop asks the processor about charges we still think are
// pending.
//
// heldout: clean — SQL under a 30s WithTimeout per tick; Client.Status is bounded by the client's Timeout
func (s *Service) ReconcileLoop(stop <-chan struct{}) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ids, err := s.pendingCharges(ctx)
		cancel()
		if err != nil {
			log.Printf("reconcile: %v", err)
			continue
		}
		for _, id := range ids {
			st, err := s.client.Status(id)
			if err != nil {
				log.Printf("reconcile %s: %v", id, err)
				continue
			}
			log.Printf("reconcile %s: processor says %s", id, st)
		}
		if now := time.Now(); now.Hour() == 0 && now.Minute() == 0 {
			if err := s.UploadSettlement(now.AddDate(0, 0, -1)); err != nil {
				log.Printf("settlement upload: %v", err)
			}
		}
	}
}

// UploadSettlement sends yesterday's captured charges to the bank over
// its TLS line protocol.
//
// heldout: notimeout — tls.Dial has no timeout and the connection gets no deadline: a bank that accepts and stalls hangs the reconciler
func (s *Service) UploadSettlement(day time.Time) error {
	end := time.Date(day.Year(), day.Month(), day.Day()+1, 0, 5, 0, 0, time.UTC)
	ctx, cancel := context.WithDeadline(context.Background(), end.Add(time.Hour))
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT id, amount_ct FROM charges WHERE status = 'captured' AND captured_at::date = $1`, day.Format("2006-01-02"))
	if err != nil {
		return err
	}
	defer rows.Close()
	conn, err := tls.Dial("tcp", s.BankAddr, &tls.Config{MinVersion: tls.VersionTLS12})
	if err != nil {
		return fmt.Errorf("bank: %w", err)
	}
	defer conn.Close()
	for rows.Next() {
		var id string
		var amount int64
		if err := rows.Scan(&id, &amount); err != nil {
			return err
		}
		fmt.Fprintf(conn, "SETTLE %s %d\r\n", id, amount)
	}
	fmt.Fprint(conn, "END\r\n")
	ack, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if ack != "OK\r\n" {
		return fmt.Errorf("bank rejected settlement: %q", ack)
	}
	return rows.Err()
}

// heldout: ctxdrop — ledger GetBalance gets context.Background() although r.Context() is in scope (the interceptor's 2s bound does not carry the request's deadline or cancellation)
func (s *Service) HandleBalance(w http.ResponseWriter, r *http.Request) {
	rep, err := s.ledger.GetBalance(context.Background(), &ledger.GetBalanceRequest{Account: r.PathValue("account")})
	if err != nil {
		log.Printf("balance: %v", err)
		http.Error(w, "ledger unavailable", http.StatusBadGateway)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]int64{"balance": rep.BalanceCt})
}

// heldout: notimeout — audit goroutine gets context.WithoutCancel(r.Context()), which drops the deadline, and the audit client has no Timeout
func (s *Service) HandleDispute(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	reason := r.FormValue("reason")
	if _, err := s.db.ExecContext(r.Context(), `INSERT INTO disputes (charge_id, reason) VALUES ($1, $2)`, id, reason); err != nil {
		log.Printf("dispute %s: %v", id, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	// Keep the request's values (trace, user) but not its cancellation.
	actx := context.WithoutCancel(r.Context())
	go func() {
		if err := s.audit.Record(actx, AuditEvent{Kind: "dispute", Ref: id}); err != nil {
			log.Printf("audit dispute %s: %v", id, err)
		}
	}()
	w.WriteHeader(http.StatusAccepted)
}

// heldout: clean — QueryContext with the caller's ctx
func (s *Service) pendingCharges(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM charges WHERE status = 'pending' AND created_at < now() - interval '10 minutes'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
