// Package peers holds the shapes of the http.Get and http.DefaultClient
// sites in the peer linters' labelled testdata (noctx, the httpresponse
// vet pass), in resilvet's own words: notimeout reports each of them.
package peers

import (
	"context"
	"net/http"
)

func helpers(u string) {
	http.Get(u)              // want `http.Get uses http.DefaultClient`
	http.Head(u)             // want `http.Head uses http.DefaultClient`
	http.Post(u, "", nil)    // want `http.Post uses http.DefaultClient`
	http.PostForm(u, nil)    // want `http.PostForm uses http.DefaultClient`
	get := http.Get          // a function value...
	get(u)                   // want `http.Get uses http.DefaultClient`
	_ = http.Get             // ...that is never called: nothing
	resp, err := http.Get(u) // want `http.Get uses http.DefaultClient`
	if err == nil {
		resp.Body.Close()
	}
}

func clientMethods(u string) {
	c := &http.Client{}
	c.Get(u)           // want `http.Client.Get has no timeout`
	c.Head(u)          // want `http.Client.Head has no timeout`
	c.Post(u, "", nil) // want `http.Client.Post has no timeout`
	c.PostForm(u, nil) // want `http.Client.PostForm has no timeout`
	head := c.Head     // a method value
	head(u)            // want `http.Client.Head has no timeout`
	_ = c.Get
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	c.Do(req) // want `http.Client.Do has no deadline`
}

func defaultClientValue(u string) {
	client := http.DefaultClient
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	resp, err := client.Do(req) // want `http.Client.Do has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	client.Get(u) // want `http.Client.Get has no timeout`
}

func clientStructValue(u string) {
	var client http.Client
	client.Get(u) // want `http.Client.Get has no timeout`
	plain := http.Client{}
	plain.Head(u) // want `http.Client.Head has no timeout`
	tr := http.Client{Transport: http.DefaultTransport}
	tr.Get(u) // want `http.Client.Get has no timeout`
	bounded := http.Client{Timeout: 1}
	bounded.Get(u)
}

func nested(u string) {
	body(body(http.Get(u))) // want `http.Get uses http.DefaultClient`
}

func body(r *http.Response, err error) (*http.Response, error) { return r, err }

func backgroundRequest(u string) {
	ctx := context.Background()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	http.DefaultClient.Do(req) // want `http.Client.Do has no deadline: the request's context \(context.Background\(\) at peers.go:\d+:\d+\) has none`
}
