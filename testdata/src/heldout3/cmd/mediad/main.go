// Command mediad runs the media back office: upload API, transcoding workers
// and background maintenance.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"heldout3/api"
	"heldout3/cdn"
	"heldout3/drm"
	"heldout3/store"
	"heldout3/thumbs"
	"heldout3/transcode"
)

type config struct {
	Addr       string `json:"addr"`
	DSN        string `json:"dsn"`
	CDNBase    string `json:"cdn_base"`
	CDNToken   string `json:"cdn_token"`
	LegacyEdge string `json:"legacy_edge"`
	License    string `json:"license"`
	Origin     string `json:"origin"`
	Hook       string `json:"hook"`
}

// loadConfig reads the JSON configuration file.
// heldout: clean — local file read
func loadConfig(path string) (*config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// startLicenseHeartbeat probes the license service every minute.
// heldout: notimeout — a poller started at start-up calls IssueLicense with context.Background() and no deadline on each tick
func startLicenseHeartbeat(dc *drm.Client) {
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for range t.C {
			if _, err := dc.IssueLicense(context.Background(), &drm.LicenseRequest{ContentID: "heartbeat", Policy: "probe"}); err != nil {
				log.Printf("license heartbeat: %v", err)
			}
		}
	}()
}

// shutdown drains the HTTP server and the workers within 20 s.
// heldout: clean — bounded root for Shutdown and Stop, no context in scope
func shutdown(srv *http.Server, rn *transcode.Runner) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		log.Printf("http shutdown: %v", err)
	}
	rn.Stop(ctx)
}

// heldout: clean — start-up in main: one license probe on main's own context, workers and poller get the signal context and bound their own calls
func main() {
	cfgPath := flag.String("config", "/etc/mediad.json", "configuration file")
	flag.Parse()
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		log.Fatal(err)
	}
	st, err := store.Open(cfg.DSN)
	if err != nil {
		log.Fatal(err)
	}
	if err := st.Migrate(); err != nil {
		log.Fatal(err)
	}
	dc, err := drm.New(cfg.License)
	if err != nil {
		log.Fatal(err)
	}
	defer dc.Close()
	if _, err := dc.IssueLicense(context.Background(), &drm.LicenseRequest{ContentID: "startup", Policy: "probe"}); err != nil {
		log.Fatalf("license service: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	rn := transcode.NewRunner(st, dc, cfg.Hook)
	rn.Start(ctx, 4)
	go rn.PollPending(ctx, 30*time.Second)
	go rn.WatchStale(func() []string { return nil })
	startLicenseHeartbeat(dc)

	th := thumbs.New(cfg.Origin, 4096)
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           api.NewServer(st, cdn.NewHTTPPurger(cfg.CDNBase, cfg.CDNToken), cdn.NewLegacyPurger(cfg.LegacyEdge), dc, th, rn).Routes(),
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()
	<-ctx.Done()
	shutdown(srv, rn)
}
