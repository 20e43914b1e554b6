// Package dskitsvc starts and stops dskit services: the context given to
// StartAsync is the service's for its life, and waiting for a stopped
// service to finish is cleanup.
package dskitsvc

import (
	"context"

	"github.com/grafana/dskit/services"
)

type module struct {
	svc services.Service
}

// stopAndWait stops the service and waits for it to finish.
func (m *module) stopAndWait() {
	m.svc.StopAsync()
	_ = m.svc.AwaitTerminated(context.Background())
}

func (m *module) starting(ctx context.Context) error {
	if err := m.svc.StartAsync(context.Background()); err != nil { // ok: the service's own lifetime
		return err
	}
	if err := m.svc.AwaitRunning(context.Background()); err != nil { // want `context.Background\(\) passed to services.Service.AwaitRunning while ctx is available`
		return err
	}
	m.stopAndWait() // ok: waiting for a stopped service is cleanup
	return nil
}
