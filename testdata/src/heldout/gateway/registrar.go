package gateway

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"
)

// Registrar keeps this instance registered with the service registry.
type Registrar struct {
	registryURL string
	instanceID  string
	addr        string
	hc          *http.Client
}

// heldout: clean — constructor (client without Timeout; calls are bounded, or not, where they happen)
func NewRegistrar(registryURL, instanceID, addr string) *Registrar {
	return &Registrar{registryURL: registryURL, instanceID: instanceID, addr: addr, hc: &http.Client{}}
}

// heldout: clean — sends with the caller's ctx
func (r *Registrar) put(ctx context.Context, path string) error {
	body := fmt.Sprintf(`{"id":%q,"addr":%q}`, r.instanceID, r.addr)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, r.registryURL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("registry %s: %s", path, resp.Status)
	}
	return nil
}

// Run registers, heartbeats until ctx is done, then deregisters.
//
// heldout: notimeout — after ctx is done it deregisters on context.Background() through a client with no Timeout: shutdown can hang on the registry
func (r *Registrar) Run(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := r.put(rctx, "/v1/register")
	cancel()
	if err != nil {
		return err
	}
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := r.put(context.Background(), "/v1/deregister"); err != nil {
				log.Printf("deregister: %v", err)
			}
			return nil
		case <-t.C:
			hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			if err := r.put(hctx, "/v1/heartbeat"); err != nil {
				log.Printf("heartbeat: %v", err)
			}
			cancel()
		}
	}
}
