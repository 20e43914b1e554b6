// Package grpcconnuse calls through connections dialled in another
// package (grpcconns): a call with no deadline is bounded by its own
// connection's timeout interceptor, not by any other connection's.
package grpcconnuse

import (
	"context"

	"notimeout/grpcconns"
	"notimeout/orderspb"
)

type Poller struct {
	orders, billing orderspb.OrdersClient
}

func NewPoller() (*Poller, error) {
	o, err := grpcconns.NewOrders()
	if err != nil {
		return nil, err
	}
	b, err := grpcconns.NewBilling()
	if err != nil {
		return nil, err
	}
	return &Poller{orders: o, billing: b}, nil
}

func (p *Poller) Poll() {
	p.orders.GetOrder(context.Background(), &orderspb.GetOrderRequest{})
	p.billing.GetOrder(context.Background(), &orderspb.GetOrderRequest{}) // want `context.Background\(\) reaches grpc.ClientConnInterface.Invoke`
}

func direct() {
	if inv, err := grpcconns.NewInventory(); err == nil {
		inv.Invoke(context.Background(), "/inventory.Inventory/Get", nil, nil)
		orderspb.NewOrdersClient(inv).GetOrder(context.Background(), &orderspb.GetOrderRequest{})
	}
	if l, err := grpcconns.NewLedger(); err == nil {
		l.Invoke(context.Background(), "/ledger.Ledger/Append", nil, nil) // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
	}
	if c, err := grpcconns.NewCatalog(); err == nil {
		c.Invoke(context.Background(), "/catalog.Catalog/List", nil, nil)
	}
	if s, err := grpcconns.NewSearch(); err == nil {
		s.Invoke(context.Background(), "/search.Search/Query", nil, nil) // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
	}
	if b, err := grpcconns.NewBilling(); err == nil {
		b.GetOrder(context.Background(), &orderspb.GetOrderRequest{}) // want `context.Background\(\) reaches grpc.ClientConnInterface.Invoke`
	}
}

// A connection whose options are not known here, in a package that
// builds no timeout interceptor: reported, as any call with no deadline.
func viaDial() {
	if c, err := grpcconns.Dial("x:443"); err == nil {
		c.Invoke(context.Background(), "/x.X/Get", nil, nil) // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
	}
}
