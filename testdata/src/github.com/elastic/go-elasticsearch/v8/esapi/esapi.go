// Package esapi is a stub of the Elasticsearch client's request API.
package esapi

import (
	"context"
	"net/http"
)

type Transport interface {
	Perform(*http.Request) (*http.Response, error)
}

type Response struct{}

type SearchRequest struct{ Index []string }

func (r SearchRequest) Do(ctx context.Context, transport Transport) (*Response, error) {
	return nil, nil
}
