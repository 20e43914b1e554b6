// Package client is a stub of controller-runtime's client: its calls go
// to the API server.
package client

import (
	"context"
	"net/http"
)

type Object interface{ GetName() string }

type ObjectList interface{ Len() int }

type Reader interface {
	Get(ctx context.Context, key string, obj Object) error
	List(ctx context.Context, list ObjectList) error
}

// Writer writes to the API server, as controller-runtime's does.
type Writer interface {
	Create(ctx context.Context, obj Object) error
	Update(ctx context.Context, obj Object) error
	Delete(ctx context.Context, obj Object) error
}

type Client interface {
	Reader
	Writer
}

type remote struct{ hc *http.Client }

func (r *remote) Get(ctx context.Context, key string, obj Object) error {
	req, err := http.NewRequestWithContext(ctx, "GET", "https://apiserver/"+key, nil)
	if err != nil {
		return err
	}
	_, err = r.hc.Do(req)
	return err
}

func (r *remote) List(ctx context.Context, list ObjectList) error { return r.Get(ctx, "", nil) }

func (r *remote) Update(ctx context.Context, obj Object) error { return r.Get(ctx, obj.GetName(), obj) }

func (r *remote) Create(ctx context.Context, obj Object) error { return r.Get(ctx, obj.GetName(), obj) }

func (r *remote) Delete(ctx context.Context, obj Object) error { return r.Get(ctx, obj.GetName(), obj) }

func New(hc *http.Client) Client { return &remote{hc: hc} }
