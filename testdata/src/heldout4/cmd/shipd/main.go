// Command shipd runs the shipping platform's API and background workers.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"heldout4/api"
	"heldout4/billing"
	"heldout4/carrier"
	"heldout4/dispatch"
	"heldout4/geo"
	"heldout4/retryx"
	"heldout4/store"
	"heldout4/tracking"
)

type config struct {
	addr       string
	dsn        string
	gatewayURL string
	gatewayKey string
	mirrors    string
	geoURL     string
	geoKey     string
	ledgerURL  string
	depot      geo.Point
	pollEvery  time.Duration
	workers    int
}

// heldout: clean — start-up; retryx.Linear around Ping sleeps in a function without a context
func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", ":8080", "listen address")
	flag.StringVar(&cfg.dsn, "dsn", os.Getenv("SHIPD_DSN"), "postgres DSN")
	flag.StringVar(&cfg.gatewayURL, "gateway", "https://carrier-gw.internal", "carrier gateway URL")
	flag.StringVar(&cfg.gatewayKey, "gateway-key", os.Getenv("SHIPD_GATEWAY_KEY"), "carrier gateway token")
	flag.StringVar(&cfg.mirrors, "label-mirrors", "", "comma-separated label CDN mirrors")
	flag.StringVar(&cfg.geoURL, "geo", "https://maps.vendor.example", "mapping vendor URL")
	flag.StringVar(&cfg.geoKey, "geo-key", os.Getenv("SHIPD_GEO_KEY"), "mapping vendor key")
	flag.StringVar(&cfg.ledgerURL, "ledger", "https://ledger.internal", "ledger URL")
	flag.Float64Var(&cfg.depot.Lat, "depot-lat", 52.37, "home depot latitude")
	flag.Float64Var(&cfg.depot.Lng, "depot-lng", 4.89, "home depot longitude")
	flag.DurationVar(&cfg.pollEvery, "poll", 5*time.Minute, "tracking poll interval")
	flag.IntVar(&cfg.workers, "workers", 4, "pickup workers")
	flag.Parse()

	st, err := store.Open(cfg.dsn)
	if err != nil {
		log.Fatal(err)
	}
	// The database comes up after us in the compose file.
	if err := retryx.Linear(30, time.Second, st.Ping); err != nil {
		log.Fatalf("shipd: database not reachable: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, st); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

// heldout: clean — wiring, goroutines and shutdown; no retry loop
func run(ctx context.Context, cfg config, st *store.Store) error {
	logger := log.New(os.Stderr, "shipd ", log.LstdFlags|log.Lmicroseconds)
	var mirrors []string
	if cfg.mirrors != "" {
		mirrors = strings.Split(cfg.mirrors, ",")
	}
	cc := carrier.NewClient(cfg.gatewayURL, cfg.gatewayKey, mirrors)
	gc := geo.New(cfg.geoURL, cfg.geoKey)
	bc, err := connectLedger(ctx, cfg.ledgerURL)
	if err != nil {
		return err
	}
	svc := dispatch.NewService(st, cc, gc, bc, logger)

	var wg sync.WaitGroup
	poller := &tracking.Poller{Store: st, Service: svc, Carriers: cc, Every: cfg.pollEvery, Log: logger}
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = poller.Run(ctx)
	}()
	for i := 0; i < cfg.workers; i++ {
		w := &tracking.Worker{
			Name:       fmt.Sprintf("depot-worker-%d", i),
			PrinterURL: "http://printer.depot.internal",
			Service:    svc,
			Carriers:   cc,
			HTTP:       &http.Client{Timeout: 20 * time.Second},
			Log:        logger,
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Supervise(ctx)
		}()
	}
	go warmCaches(ctx, gc, cfg.depot, logger)

	srv := &http.Server{Addr: cfg.addr, Handler: api.NewServer(st, svc, gc, bc, logger), ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()

	select {
	case err = <-errc:
	case <-ctx.Done():
		err = ctx.Err()
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdownCtx)
	wg.Wait()
	return err
}

// connectLedger waits for the ledger to answer its health check, then
// returns a client for it.
//
// heldout: clean — single bounded layer around a plain GET, waiting in a select on ctx.Done and time.After
func connectLedger(ctx context.Context, base string) (*billing.Client, error) {
	hc := &http.Client{Timeout: 5 * time.Second}
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		var req *http.Request
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil); err != nil {
			return nil, err
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return billing.New(base, hc), nil
			}
			err = fmt.Errorf("ledger health: %s", resp.Status)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
	return nil, fmt.Errorf("shipd: ledger not ready: %w", err)
}

// warmCaches loads the depot's time zone before the first label is
// printed; label times are local.
//
// heldout: retrystack — nested: retryx.Until (unbounded) around geo.Client.Timezone, a retry-go layer of 10
func warmCaches(ctx context.Context, gc *geo.Client, depot geo.Point, logger *log.Logger) {
	err := retryx.Until(ctx, func(ctx context.Context) error {
		_, err := gc.Timezone(ctx, depot)
		return err
	})
	if err != nil {
		logger.Printf("shipd: warm time zone cache: %v", err)
	}
}
