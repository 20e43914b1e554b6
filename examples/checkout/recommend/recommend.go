// Package recommend is the example service's client for the
// recommendations API.
package recommend

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// ForUser returns product recommendations for the user. It takes no
// context and makes its own, with its own 2-second timeout: a caller with
// 200 ms left still waits up to 2 s.
func ForUser(user string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return fetch(ctx, "http://recommend.internal/users/"+user)
}

func fetch(ctx context.Context, url string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var items []string
	err = json.NewDecoder(resp.Body).Decode(&items)
	return items, err
}

// Popular returns the most popular products, for the home page cache the
// service refreshes in the background.
func Popular() ([]string, error) {
	// Mistake: http.Get uses http.DefaultClient, which has no timeout, so
	// a hung recommendations service stalls the refresh forever.
	resp, err := http.Get("http://recommend.internal/popular")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var items []string
	err = json.NewDecoder(resp.Body).Decode(&items)
	return items, err
}

// Recent returns the products the user viewed recently. It retries its
// request three times itself, waiting between attempts.
func Recent(ctx context.Context, user string) ([]string, error) {
	var lastErr error
	for attempt := range 3 {
		items, err := fetch(ctx, "http://recommend.internal/users/"+user+"/recent")
		if err == nil {
			return items, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
	return nil, lastErr
}
