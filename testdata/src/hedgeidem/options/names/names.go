// Package names is checked with -hedgeidem.key-headers=X-Request-Key,
// -hedgeidem.grpc-prefixes=Reserve and
// -hedgeidem.idempotent-methods=/shop.Seats/ReserveTwice.
package names

import (
	"context"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
	"google.golang.org/grpc"
)

func Keyed(ctx context.Context, url, key string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	req.Header.Set("x-request-key", key) // the configured header, in any case
	_, err := hc.Do(req)
	return err
}

func DefaultHeader(ctx context.Context, url, key string) error {
	hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	req.Header.Set("Idempotency-Key", key) // not configured any more
	_, err := hc.Do(req)                   // want `hedgedhttp.NewClient \(3 copies\) hedges http.Client.Do, which sends a POST request without an X-Request-Key header`
	return err
}

type Req struct{}
type Resp struct{}

type SeatsClient interface {
	ReserveSeat(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error)
	ReserveTwice(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error)
	CreateSeat(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error)
}

type seatsClient struct{ cc grpc.ClientConnInterface }

func (c *seatsClient) ReserveSeat(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error) {
	return nil, c.cc.Invoke(ctx, "/shop.Seats/ReserveSeat", in, nil, opts...)
}

func (c *seatsClient) ReserveTwice(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error) {
	return nil, c.cc.Invoke(ctx, "/shop.Seats/ReserveTwice", in, nil, opts...)
}

func (c *seatsClient) CreateSeat(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error) {
	return nil, c.cc.Invoke(ctx, "/shop.Seats/CreateSeat", in, nil, opts...)
}

func NewSeatsClient(cc grpc.ClientConnInterface) SeatsClient { return &seatsClient{cc} }

func Book(ctx context.Context) {
	conn, _ := grpc.NewClient("seats:443", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{"service": "shop.Seats"}], "hedgingPolicy": {"maxAttempts": 2}}]}`))
	c := NewSeatsClient(conn)
	c.ReserveSeat(ctx, &Req{})  // want `hedgingPolicy \(2 copies\) of the connection dialled at names.go:\d+ hedges names.SeatsClient.ReserveSeat, which calls names.SeatsClient.ReserveSeat, whose name \(Reserve…\) says it creates or adds`
	c.ReserveTwice(ctx, &Req{}) // configured idempotent
	c.CreateSeat(ctx, &Req{})   // Create is not among the configured prefixes
}
