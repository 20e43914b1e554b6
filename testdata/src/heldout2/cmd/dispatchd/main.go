// Command dispatchd runs the dispatch API, its background jobs and the
// Zone controller. Pricing runs as its own service (pricing.Server).
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.com/kv"
	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"heldout2/billing"
	"heldout2/dispatch"
	"heldout2/eta"
	"heldout2/fleet"
	"heldout2/locations"
	"heldout2/platform"
	"heldout2/pricing"
	"heldout2/routing"
	"heldout2/webhooks"
	"heldout2/webhooks/outbox"
)

// Retries for transient pricing errors. (Per-call deadlines come from the
// callers' contexts.)
const pricingServiceConfig = `{"methodConfig": [{
  "name": [{"service": "pricing.v1.Pricing"}],
  "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s",
                  "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}
}]}`

// heldout: clean — start-up in main: every root made here is bounded where it reaches outbound work, and the process context only feeds loops that bound their own calls
func main() {
	var (
		httpAddr     = flag.String("http", ":8080", "API listen address")
		pgDSN        = flag.String("postgres", os.Getenv("DATABASE_URL"), "main Postgres DSN")
		locDSN       = flag.String("locations-db", os.Getenv("LOCATIONS_URL"), "locations Postgres DSN")
		pricingAddr  = flag.String("pricing", "pricing:9090", "pricing service target")
		routingURL   = flag.String("routing", "https://api.routing.example", "routing provider base URL")
		surgeFeed    = flag.String("surge-feed", "http://marketplace/surge.json", "surge feed URL")
		telematics   = flag.String("telematics", "feed.telematics.example:7001", "telematics vendor address")
		replay       = flag.String("telematics-replay", "feed.telematics.example:7002", "telematics replay address")
		outboxPath   = flag.String("outbox", "/var/lib/dispatchd/outbox.db", "webhook outbox file")
		introspect   = flag.String("introspect", "http://identity/oauth/introspect", "token introspection URL")
		supportHook  = flag.String("support-hook", "http://support-intake/issues", "support desk intake URL")
		financeHook  = flag.String("finance-hook", "http://slack-bridge/finance", "finance notifications URL")
		bankURL      = flag.String("bank", "https://bank.example/api", "payout bank API")
		modelVersion = flag.String("pricing-model", "2026.11", "pricing model version")
	)
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	startCtx, cancelStart := context.WithTimeout(ctx, 30*time.Second)
	db, err := platform.OpenPostgres(startCtx, *pgDSN)
	if err != nil {
		log.Error("postgres", "err", err)
		os.Exit(1)
	}
	if err := billing.EnsureSchema(db); err != nil {
		log.Error("schema", "err", err)
		os.Exit(1)
	}
	kvc := &kv.Client{}
	locs, err := locations.NewStore(startCtx, *locDSN, kvc)
	cancelStart()
	if err != nil {
		log.Error("locations", "err", err)
		os.Exit(1)
	}
	ob, err := outbox.Open(*outboxPath)
	if err != nil {
		log.Error("outbox", "err", err)
		os.Exit(1)
	}
	ledger, err := billing.NewLedger(db)
	if err != nil {
		log.Error("ledger", "err", err)
		os.Exit(1)
	}

	pricingConn, err := grpc.NewClient(*pricingAddr, grpc.WithDefaultServiceConfig(pricingServiceConfig))
	if err != nil {
		log.Error("pricing dial", "err", err)
		os.Exit(1)
	}
	defer pricingConn.Close()

	router := routing.New(*routingURL, os.Getenv("ROUTING_KEY"), routing.WithTimeout(2*time.Second))
	surge := pricing.NewSurgeTable(*surgeFeed, log)
	etaCache := eta.NewCache(router, 2*time.Minute, log)
	bus := platform.NewBus(10*time.Second, log)
	hooks := webhooks.NewDispatcher(webhooks.NewPartnerStore(db), ob, log)
	job := billing.NewPayoutJob(db, billing.NewBankClient(*bankURL, os.Getenv("BANK_TOKEN")), ledger, *financeHook, "https://fx.example/latest", log)

	srv := dispatch.NewServer(dispatch.Deps{
		DB: db, Pricing: pricing.NewPricingClient(pricingConn), ETA: etaCache, Router: router,
		Locations: locs, Push: dispatch.NewPushClient("https://push.example", os.Getenv("PUSH_KEY")),
		Hooks: hooks, Bus: bus, SupportURL: *supportHook, Log: log,
		Popular: []pricing.QuoteRequest{{City: "BER", Zone: "ber-airport", Product: "x"}},
	})
	feed := locations.NewFeed(*telematics, *replay, locs, log)
	// The informer cache is injected by the controller manager in the
	// production wiring.
	zones := fleet.NewZoneReconciler(client.New(http.DefaultClient), nil, *modelVersion, log)

	mux := http.NewServeMux()
	mux.Handle("/", platform.Auth(*introspect, platform.NewHTTPClient(2*time.Second), log)(
		platform.RateLimit(kvc, 600, log)(srv.Routes())))
	mux.Handle("/ops/payouts", &billing.Dashboard{Job: job, Ledger: ledger})
	mux.HandleFunc("/ops/telematics", feed.CheckHandler)
	httpSrv := &http.Server{Addr: *httpAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}

	stopBg := make(chan struct{})
	go surge.Run(ctx, 15*time.Second)
	etaCache.StartRefresher(ctx, time.Minute)
	defer etaCache.Stop()
	go (&dispatch.Janitor{Store: locs, Every: 10 * time.Minute, Retention: 72 * time.Hour, Log: log}).Run(ctx)
	go (&billing.Scheduler{Job: job, Every: time.Hour, Log: log}).Run(ctx)
	go (&dispatch.Heartbeat{NC: new(nats.Conn), ID: os.Getenv("HOSTNAME"), Region: "eu-central", Every: 10 * time.Second, Log: log}).Run(ctx)
	go hooks.RedeliverLoop(ctx, 30*time.Second)
	go srv.WarmQuotes(5*time.Minute, stopBg)
	go srv.WatchSurge("ber-airport", stopBg)
	go func() {
		if err := feed.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("telematics feed stopped", "err", err)
		}
	}()
	go func() {
		if err := zones.Start(ctx, 4); err != nil {
			log.Error("zone controller stopped", "err", err)
		}
	}()

	go func() {
		if err := httpSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("http server", "err", err)
			stop()
		}
	}()
	log.Info("dispatchd up", "http", *httpAddr)

	<-ctx.Done()
	close(stopBg)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	if err := bus.Drain(shutdownCtx); err != nil {
		log.Warn("event bus drain", "err", err)
	}
	log.Info("dispatchd stopped")
}
