package billing

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"heldout2/platform"
)

var schema = []string{
	`CREATE TABLE IF NOT EXISTS payouts (
		id bigserial PRIMARY KEY, driver_id text NOT NULL, iban text NOT NULL,
		amount_cents bigint NOT NULL, currency text NOT NULL, status text NOT NULL DEFAULT 'pending',
		bank_ref text, created_at timestamptz NOT NULL DEFAULT now(), paid_at timestamptz)`,
	`CREATE INDEX IF NOT EXISTS payouts_pending ON payouts (created_at) WHERE status = 'pending'`,
	`CREATE TABLE IF NOT EXISTS ledger (
		id bigserial PRIMARY KEY, driver_id text NOT NULL, amount_cents bigint NOT NULL,
		kind text NOT NULL, ref text, at timestamptz NOT NULL DEFAULT now())`,
	`CREATE TABLE IF NOT EXISTS payout_runs (id bigserial PRIMARY KEY, started_at timestamptz, stopped_at timestamptz)`,
}

// EnsureSchema creates the billing tables if they do not exist.
// heldout: clean — DDL at start-up
func EnsureSchema(db *sql.DB) error {
	for _, stmt := range schema {
		if _, err := db.Exec(stmt); err != nil {
			return fmt.Errorf("billing schema: %w", err)
		}
	}
	return nil
}

// Payout is a pending payout row.
type Payout struct {
	ID          int64
	DriverID    string
	IBAN        string
	AmountCents int64
	Currency    string
}

// Summary is what finance gets after every run.
type Summary struct {
	Paid, Failed int
	TotalCents   int64
	Window       time.Time
}

// PayoutJob settles pending payouts.
type PayoutJob struct {
	db          *sql.DB
	bank        Bank
	ledger      *Ledger
	financeHook string
	fxURL       string
	batch       int
	log         *slog.Logger
}

// NewPayoutJob wires the job.
// heldout: clean — wiring only
func NewPayoutJob(db *sql.DB, bank Bank, ledger *Ledger, financeHook, fxURL string, log *slog.Logger) *PayoutJob {
	return &PayoutJob{db: db, bank: bank, ledger: ledger, financeHook: financeHook, fxURL: fxURL, batch: 500, log: log}
}

// Run settles one batch. It must finish inside the bank's cut-off window,
// so the whole run gets that deadline.
// heldout: clean — every call runs under a WithDeadline derived from ctx; the finance notification is a goroutine of its own
func (j *PayoutJob) Run(ctx context.Context) error {
	now := time.Now().UTC()
	cutoff := time.Date(now.Year(), now.Month(), now.Day(), 15, 30, 0, 0, time.UTC)
	if now.After(cutoff) {
		cutoff = cutoff.Add(24 * time.Hour)
	}
	ctx, cancel := context.WithDeadline(ctx, cutoff)
	defer cancel()

	rows, err := j.db.QueryContext(ctx,
		`SELECT id, driver_id, iban, amount_cents, currency FROM payouts WHERE status = 'pending' ORDER BY created_at LIMIT $1`, j.batch)
	if err != nil {
		return fmt.Errorf("load pending payouts: %w", err)
	}
	var pending []Payout
	for rows.Next() {
		var p Payout
		if err := rows.Scan(&p.ID, &p.DriverID, &p.IBAN, &p.AmountCents, &p.Currency); err != nil {
			rows.Close()
			return err
		}
		pending = append(pending, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	sum := Summary{Window: cutoff}
	for _, p := range pending {
		if err := j.settle(ctx, p); err != nil {
			j.log.Error("payout failed", "payout", p.ID, "driver", p.DriverID, "err", err)
			sum.Failed++
			continue
		}
		sum.Paid++
		sum.TotalCents += p.AmountCents
	}
	go j.notifyFinance(sum)
	return nil
}

// settle pays one driver and marks the payout paid.
// heldout: ctxdrop — tx.Exec without context on a transaction begun with ctx (the Tx's context only rolls it back)
func (j *PayoutJob) settle(ctx context.Context, p Payout) error {
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var status string
	if err := tx.QueryRowContext(ctx, `SELECT status FROM payouts WHERE id = $1 FOR UPDATE`, p.ID).Scan(&status); err != nil {
		return err
	}
	if status != "pending" {
		return nil
	}
	ref, err := j.bank.Transfer(ctx, Transfer{
		IdempotencyKey: fmt.Sprintf("payout-%d", p.ID),
		IBAN:           p.IBAN, AmountCents: p.AmountCents, Currency: p.Currency,
		Reference: "Rydr payout " + p.DriverID,
	})
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE payouts SET status = 'paid', bank_ref = $1, paid_at = now() WHERE id = $2`, ref, p.ID); err != nil {
		return err
	}
	if err := j.ledger.Record(ctx, tx, Entry{DriverID: p.DriverID, AmountCents: -p.AmountCents, Kind: "payout", Ref: ref}); err != nil {
		return err
	}
	return tx.Commit()
}

// notifyFinance posts the run summary to the finance channel.
// heldout: notimeout — http.Post on http.DefaultClient (no Timeout); runs in a goroutine with no context
func (j *PayoutJob) notifyFinance(s Summary) {
	body, _ := json.Marshal(s)
	resp, err := http.Post(j.financeHook, "application/json", bytes.NewReader(body))
	if err != nil {
		j.log.Warn("finance notification failed", "err", err)
		return
	}
	resp.Body.Close()
}

// PendingTotal is the sum of pending payouts, for the ops dashboard.
// heldout: notimeout — db.QueryRow on remote Postgres, no context in scope, so no deadline
func (j *PayoutJob) PendingTotal() (int64, error) {
	var total int64
	err := j.db.QueryRow(`SELECT COALESCE(SUM(amount_cents), 0) FROM payouts WHERE status = 'pending'`).Scan(&total)
	return total, err
}

// fetchFXRates downloads today's EUR reference rates.
// heldout: notimeout — http.DefaultClient.Do (no Timeout) with a request built by http.NewRequest (no deadline)
func fetchFXRates(url string) (map[string]float64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Rates map[string]float64 `json:"rates"`
	}
	return out.Rates, json.NewDecoder(resp.Body).Decode(&out)
}

// ReconcileDaily compares day's ledger with what was paid, in EUR. It is
// run from the admin CLI, never from a request.
// heldout: clean — no context in scope; the queries run under WithinBudget's bounded root (the FX fetch's finding is inside fetchFXRates)
func (j *PayoutJob) ReconcileDaily(day time.Time) error {
	rates, err := fetchFXRates(j.fxURL)
	if err != nil {
		return fmt.Errorf("fx rates: %w", err)
	}
	return platform.WithinBudget(10*time.Minute, func(ctx context.Context) error {
		rows, err := j.db.QueryContext(ctx,
			`SELECT p.currency, SUM(p.amount_cents), COALESCE(SUM(-l.amount_cents), 0)
			 FROM payouts p LEFT JOIN ledger l ON l.ref = p.bank_ref
			 WHERE p.paid_at >= $1 AND p.paid_at < $2 GROUP BY p.currency`,
			day, day.Add(24*time.Hour))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var cur string
			var paid, booked int64
			if err := rows.Scan(&cur, &paid, &booked); err != nil {
				return err
			}
			if paid != booked {
				j.log.Error("ledger mismatch", "currency", cur, "paid", paid, "booked", booked,
					"diff_eur", float64(paid-booked)/100/rates[cur])
			}
		}
		return rows.Err()
	})
}

// Scheduler runs the payout job every interval.
type Scheduler struct {
	Job   *PayoutJob
	Every time.Duration
	Log   *slog.Logger
}

// Run triggers the job until ctx is done, then records the stop.
// heldout: clean — the stop marker runs after ctx is done, on its own bounded context
func (s *Scheduler) Run(ctx context.Context) {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			cctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			if _, err := s.Job.db.ExecContext(cctx, `UPDATE payout_runs SET stopped_at = now() WHERE stopped_at IS NULL`); err != nil {
				s.Log.Warn("could not record scheduler stop", "err", err)
			}
			cancel()
			return
		case <-t.C:
			if err := s.Job.Run(ctx); err != nil {
				s.Log.Error("payout run failed", "err", err)
			}
		}
	}
}

// Dashboard serves the ops payout dashboard.
type Dashboard struct {
	Job    *PayoutJob
	Ledger *Ledger
}

// ServeHTTP renders pending totals and one driver's balance.
// heldout: ctxdrop — calls PayoutJob.PendingTotal, which runs db.QueryRow without a context, while r.Context() is in scope
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	total, err := d.Job.PendingTotal()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	out := map[string]any{"pending_cents": total}
	if driver := r.URL.Query().Get("driver"); driver != "" {
		bal, err := d.Ledger.Balance(r.Context(), driver)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		out["balance_cents"] = bal
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
