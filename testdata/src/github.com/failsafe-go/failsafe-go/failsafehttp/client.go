// Package failsafehttp is a stub of failsafe-go's failsafehttp for tests.
package failsafehttp

import (
	"net/http"

	failsafe "github.com/failsafe-go/failsafe-go"
)

type Request struct {
	request *http.Request
	client  *http.Client
}

func NewRequest(request *http.Request, client *http.Client, policies ...failsafe.Policy[*http.Response]) *Request {
	return &Request{request: request, client: client}
}

func (r *Request) Do() (*http.Response, error) { return r.client.Do(r.request) }

func NewRoundTripper(innerRoundTripper http.RoundTripper, policies ...failsafe.Policy[*http.Response]) http.RoundTripper {
	return innerRoundTripper
}
