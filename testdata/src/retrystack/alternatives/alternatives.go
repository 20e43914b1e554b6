// Package alternatives tries each of a list of alternatives once, in
// turn, until one works: a fallback over items, not a retry.
package alternatives

import (
	"context"
	"errors"
	"net/http"
)

var scopes = [...]string{"read", "read write", "admin"}

var errUnauthorized = errors.New("unauthorized")

func token(ctx context.Context, scope string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://auth.example.com/t?scope="+scope, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

func FirstScope(ctx context.Context) (string, error) {
	var err error
	for _, scope := range scopes {
		var t string
		if t, err = token(ctx, scope); err == nil {
			return t, nil
		}
		if !errors.Is(err, errUnauthorized) {
			return "", err
		}
	}
	return "", err
}
