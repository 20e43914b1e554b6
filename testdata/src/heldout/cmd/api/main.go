// Command api is the shop's API server: orders, payments, the public
// gateway and the background worker in one process.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"example.com/kv"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	_ "github.com/lib/pq"
	"github.com/nats-io/nats.go"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"google.golang.org/grpc"

	"heldout/gateway"
	"heldout/internal/httpx"
	"heldout/inventory"
	"heldout/inventory/localcache"
	"heldout/ledger"
	"heldout/notify"
	"heldout/orders"
	"heldout/orders/store"
	"heldout/payments"
	"heldout/worker"
)

// heldout: clean — configuration lookup
func mustEnv(key string) string {
	v := os.Getenv(key)
	if v == "" {
		log.Fatalf("%s is not set", key)
	}
	return v
}

// heldout: clean — start-up: sql.Open does no I/O and the ping has a 5s timeout
func openDB(dsn string) (*sql.DB, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	db.SetConnMaxIdleTime(5 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return db, nil
}

// heldout: clean — start-up wiring, long-lived contexts for pools and loops, and a bounded graceful shutdown
func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)

	db, err := openDB(mustEnv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	orderStore, err := store.New(db)
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	ledgerClient, ledgerConn, err := payments.DialLedger(mustEnv("LEDGER_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	defer ledgerConn.Close()
	fraudConn, err := grpc.NewClient(mustEnv("FRAUD_ADDR"),
		grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(800*time.Millisecond)))
	if err != nil {
		log.Fatal(err)
	}
	defer fraudConn.Close()

	payClient := payments.NewClient(mustEnv("PROCESSOR_URL"), payments.WithTimeout(15*time.Second))
	paySvc := payments.NewService(payClient, ledgerClient, ledger.NewFraudClient(fraudConn), db,
		mustEnv("AUDIT_URL"), mustEnv("RECEIPTS_URL"))
	paySvc.BankAddr = mustEnv("BANK_SETTLEMENT_ADDR")

	ledgerSrv, err := ledger.NewServer(db, mustEnv("FRAUD_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	defer ledgerSrv.Close()

	invClient := inventory.NewClient(mustEnv("INVENTORY_URL"))
	stock, err := localcache.Open("/var/cache/api/stock.db")
	if err != nil {
		log.Fatal(err)
	}
	syncer := inventory.NewSyncer(invClient, stock, mustEnv("INVENTORY_FEED_URL"))
	syncer.LoadSnapshot()
	syncer.Start()
	defer syncer.Stop()

	stockLedger, err := inventory.NewLedger(ctx, mustEnv("STOCK_DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}

	catalog := inventory.NewCatalog(&mongo.Collection{}, (esapi.Transport)(nil), &kv.Client{}, &nats.Conn{})

	verifier, err := gateway.NewVerifier(mustEnv("IDP_KEYS_URL"), mustEnv("IDP_INTROSPECT_URL"))
	if err != nil {
		log.Fatal(err)
	}
	flags := gateway.NewFlagStore(mustEnv("FLAGS_URL"))
	if err := flags.Prime(); err != nil {
		log.Printf("flags: starting with defaults: %v", err)
	}
	flags.Start()
	defer flags.Stop()
	gw, err := gateway.New(gateway.Config{Upstream: mustEnv("UPSTREAM_URL"), UserinfoURL: mustEnv("USERINFO_URL")}, verifier, flags)
	if err != nil {
		log.Fatal(err)
	}

	awsCfg, err := config.LoadDefaultConfig(ctx, config.WithRegion("eu-west-1"))
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("aws region %s", awsCfg.Region)

	mailer := notify.NewMailer(mustEnv("MAIL_API_URL"), mustEnv("MAIL_API_KEY"), notify.WithMailTimeout(8*time.Second))
	sms := notify.NewSMSGateway(mustEnv("SMS_GATEWAY_ADDR"))
	hooks := notify.NewWebhookSender(mustEnv("WEBHOOK_SECRET"))
	w := worker.New(worker.Config{
		Bucket:        mustEnv("PRICE_BUCKET"),
		HeartbeatAddr: mustEnv("HEARTBEAT_ADDR"),
		PartnerHooks:  strings.Split(os.Getenv("PARTNER_HOOKS"), ","),
	}, orderStore, payClient, mailer, hooks, gateway.NewSessionStore(db), &s3.Client{})

	stopLoops := make(chan struct{})
	go w.Run(ctx)
	go paySvc.ReconcileLoop(stopLoops)
	go stockLedger.CompactLoop(stopLoops)
	go ledgerSrv.RescoreLoop(stopLoops)
	go catalog.WarmLoop(stopLoops, []string{"shoes", "jackets"})
	go gw.ProbeLoop(stopLoops)
	go notify.RunMetrics("127.0.0.1:8125", stopLoops)

	reg := gateway.NewRegistrar(mustEnv("REGISTRY_URL"), mustEnv("INSTANCE_ID"), mustEnv("ADVERTISE_ADDR"))
	regDone := make(chan struct{})
	go func() {
		defer close(regDone)
		if err := reg.Run(ctx); err != nil {
			log.Printf("registrar: %v", err)
		}
	}()

	mux := http.NewServeMux()
	orderRoutes := orders.NewHandler(orderStore, payClient, invClient, stock, mailer, sms).Routes()
	mux.Handle("/orders", orderRoutes)
	mux.Handle("/orders/", orderRoutes)
	paySvc.Register(mux)
	mux.HandleFunc("GET /products/{id}", catalog.ServeProduct)
	mux.HandleFunc("GET /ledger/healthz", ledgerSrv.HealthHandler)
	mux.Handle("/", gw.Handler())

	srv := &http.Server{
		Addr:              ":8080",
		Handler:           httpx.TimeoutMiddleware(15*time.Second, mux),
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	grpcSrv := grpc.NewServer()
	go func() {
		lis, err := net.Listen("tcp", ":9090")
		if err != nil {
			log.Fatal(err)
		}
		grpcSrv.Serve(lis)
	}()
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()
	log.Printf("api listening on %s", srv.Addr)

	<-ctx.Done()
	log.Print("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		log.Printf("http shutdown: %v", err)
	}
	close(stopLoops)
	if err := w.Stop(shutdownCtx); err != nil {
		log.Printf("worker stop: %v", err)
	}
	select {
	case <-regDone:
	case <-shutdownCtx.Done():
	}
}
