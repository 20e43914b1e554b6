// Command paymentsd runs the payments back end.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/lib/pq"
	"github.com/segmentio/kafka-go"

	"heldout5/api"
	"heldout5/clients"
	"heldout5/notify"
	"heldout5/orders"
	"heldout5/payments"
	"heldout5/search"
	"heldout5/store"
)

// kafkaSink is the relay's sink: the notifications topic.
type kafkaSink struct {
	w *kafka.Writer
}

// heldout: clean — publishes once, no layer here (the relay's retry loop sees only the Sink interface)
func (k kafkaSink) Emit(ctx context.Context, e notify.Event) error {
	value, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return k.w.WriteMessages(ctx, kafka.Message{Key: []byte(e.OrderID), Value: value})
}

// register announces the instance to the service registry.
//
// heldout: hedgeidem — POST without a key through clients.Default, another package's exported variable holding a hedgedhttp.NewClient (2 copies)
func register(ctx context.Context, registry, instance, addr string) error {
	body, err := json.Marshal(map[string]string{"instance": instance, "addr": addr, "service": "paymentsd"})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, registry+"/v1/instances", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := clients.Default.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("register: %s", resp.Status)
	}
	return nil
}

// heldout: clean — start-up and shutdown, no layer
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	reports, err := sql.Open("mysql", os.Getenv("REPORTS_DSN"))
	if err != nil {
		log.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, os.Getenv("INVENTORY_URL"))
	if err != nil {
		log.Fatal(err)
	}
	st := store.New(db, reports, pool)
	if err := st.Seed(ctx); err != nil {
		log.Fatal(err)
	}

	hc, err := clients.NewHTTP(150 * time.Millisecond)
	if err != nil {
		log.Fatal(err)
	}
	pay, err := payments.New(os.Getenv("PROVIDER_URL"), hc, os.Getenv("LEDGER_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	svc, err := orders.NewService(st, pay, &kafka.Writer{Topic: "orders"}, os.Getenv("CUSTOMERS_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	srch, err := search.NewClient(os.Getenv("SEARCH_URL"))
	if err != nil {
		log.Fatal(err)
	}
	disp, err := notify.NewDispatcher(hc.Plain, os.Getenv("NOTIFIER_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	relay := &notify.Relay{Sink: kafkaSink{w: &kafka.Writer{Topic: "notifications"}}}
	go func() {
		<-ctx.Done()
		relay.Forward(context.Background(), notify.Event{Type: "shutdown", At: time.Now()})
		disp.FanOut(context.Background(), nil)
	}()

	srv := &http.Server{
		Addr: ":8080",
		Handler: api.NewServer(svc, srch, hc, api.Config{
			RefundsURL:    os.Getenv("REFUNDS_URL"),
			LoyaltyURL:    os.Getenv("LOYALTY_URL"),
			NotifyURL:     os.Getenv("NOTIFY_URL"),
			FulfilmentURL: os.Getenv("FULFILMENT_URL"),
		}).Routes(),
	}
	host, _ := os.Hostname()
	if err := register(ctx, os.Getenv("REGISTRY_URL"), host, srv.Addr); err != nil {
		log.Printf("register: %v", err)
	}
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shutdownCtx)
	}()
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
