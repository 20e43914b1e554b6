// Package retries retries work that is not idempotent.
package retries

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/smtp"
	"net/url"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/segmentio/kafka-go"
)

type Store struct{ db *sql.DB }

func (s *Store) Credit(ctx context.Context, id string, n int) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", n, id) // want `retry loop \(3 attempts\) retries sql.DB.ExecContext, which runs an UPDATE that adds to a column \(UPDATE accounts SET\) \(retries.go:23\), and an attempt that failed or timed out may already have taken effect; make the statement an upsert on an operation id, or do not retry it`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Transfer retries a whole transaction: a failed attempt rolls back its
// INSERT, so the retry does not duplicate it.
func (s *Store) Transfer(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.transfer(ctx, id); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *Store) transfer(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO transfers (id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Store) SetBalance(ctx context.Context, id string, n int) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = s.db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", n, id)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *Store) save(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "insert into events (id) values (?)", id)
	return err
}

func (s *Store) upsert(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO events (id) VALUES (?) ON DUPLICATE KEY UPDATE id = id", id)
	return err
}

func (s *Store) Save(ctx context.Context, id string) error {
	return retry.Do(func() error { return s.save(ctx, id) }, retry.Context(ctx)) // want `retry.Do \(10 attempts\) retries retries.Store.save, which runs an INSERT without an upsert clause \(insert into events\)`
}

func (s *Store) Upsert(ctx context.Context, id string) error {
	return retry.Do(func() error { return s.upsert(ctx, id) }, retry.Context(ctx))
}

func Mail(addr, to string, msg []byte) error {
	return retry.Do(func() error { // want `retry.Do \(3 attempts\) retries smtp.SendMail, which sends mail with smtp.SendMail`
		return smtp.SendMail(addr, nil, "noreply@example.com", []string{to}, msg)
	}, retry.Attempts(3))
}

func Publish(ctx context.Context, w *kafka.Writer, v []byte) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = w.WriteMessages(ctx, kafka.Message{Value: v}); err == nil { // want `retry loop \(5 attempts\) retries kafka.Writer.WriteMessages, which publishes a message with kafka.Writer.WriteMessages`
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func Webhook(ctx context.Context, url string) error {
	c := retryablehttp.NewClient()
	_, err := c.Post(url, "application/json", []byte("{}")) // want `retryablehttp.Client.Post \(5 attempts\) retries the request it sends whatever its method, and it sends a POST request with retryablehttp.Client.Post, which cannot carry an idempotency key`
	return err
}

// exchange posts an OAuth 2 code to the token endpoint: a second try
// creates nothing (the code is single-use).
func exchange(ctx context.Context, tokenURL string, ep struct{ TokenURL string }) error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, ep.TokenURL, []byte("code=x"))
	if err != nil {
		return err
	}
	if _, err = c.Do(req); err != nil {
		return err
	}
	_, err = c.Post(tokenURL+"/oauth/token", "application/x-www-form-urlencoded", nil)
	return err
}

func WebhookKeyed(ctx context.Context, url, key string) error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, []byte("{}"))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = c.Do(req)
	return err
}

func WebhookUnkeyed(ctx context.Context, url string) error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, []byte("{}"))
	if err != nil {
		return err
	}
	_, err = c.Do(req) // want `retryablehttp.Client.Do \(5 attempts\) retries the request it sends whatever its method, and it sends a POST request without an Idempotency-Key header`
	return err
}

// charge is vouched for: the server deduplicates on the order id.
//
//resilvet:idempotent the payment API deduplicates on the order id in the body
func charge(ctx context.Context, url string) error {
	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Charge(ctx context.Context, url string) error {
	return retry.Do(func() error { return charge(ctx, url) }, retry.Context(ctx))
}

//resilvet:idempotent
func refund(ctx context.Context, url string) error { // want `//resilvet:idempotent gives no reason, so reviewers cannot check why the function is safe to hedge and retry; say why after the directive`
	_, err := http.Post(url, "application/json", nil)
	return err
}

func Refund(ctx context.Context, url string) error {
	return retry.Do(func() error { return refund(ctx, url) }, retry.Context(ctx))
}

// sendRetried retries the send of a request it is given, through a
// closure that captured it: each caller's request decides.
func sendRetried(ctx context.Context, req *http.Request) (*http.Response, error) {
	return retry.DoWithData(func() (*http.Response, error) {
		return http.DefaultClient.Do(req.Clone(ctx))
	}, retry.Attempts(3), retry.Context(ctx))
}

func Resend(ctx context.Context, url string) error {
	post, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	if _, err := sendRetried(ctx, post); err != nil { // want `retry.DoWithData \(3 attempts\) retries retries.sendRetried, which sends a POST request without an Idempotency-Key header set before the send`
		return err
	}
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	_, err = sendRetried(ctx, get)
	return err
}

// OpenUpload opens a resumable upload session (Google APIs'
// uploadType=resumable): the POST writes nothing, and a second one opens
// a second session, which expires unused.
func OpenUpload(ctx context.Context, bucket, name string) (string, error) {
	u := &url.URL{Scheme: "https", Host: "storage.example.com", Path: "/upload/b/" + bucket + "/o", RawQuery: fmt.Sprintf("uploadType=resumable&name=%v", name)}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), nil)
	if err != nil {
		return "", err
	}
	return retry.DoWithData(func() (string, error) { return location(req) }, retry.Context(ctx))
}

// CreateObject posts the object itself to a URL built the same way: a
// retry may write it twice.
func CreateObject(ctx context.Context, bucket, name string) (string, error) {
	u := &url.URL{Scheme: "https", Host: "storage.example.com", Path: "/b/" + bucket + "/o", RawQuery: fmt.Sprintf("name=%v", name)}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), nil)
	if err != nil {
		return "", err
	}
	return retry.DoWithData(func() (string, error) { return location(req) }, retry.Context(ctx)) // want `retry.DoWithData \(10 attempts\) retries retries.location, which sends a POST request`
}

func location(req *http.Request) (string, error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Header.Get("Location"), nil
}
