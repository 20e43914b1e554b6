// Package app builds clients with options and retries around them: the
// client's count is the one its construction gives it.
package app

import (
	"context"
	"time"

	"retrystack/options/client"
)

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Five: WithRetries(5) around a loop of 3.
func Five(ctx context.Context) error {
	c := client.New(client.WithURL("http://orders"), client.WithRetries(5))
	var err error
	for range 3 {
		if err = c.Get(ctx); err == nil { // want `retry loop \(3 attempts\) wraps client.Client.Get, which retries 5× \(client.go:\d+\): up to 15 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// Once: WithRetries(1) is a single attempt, no layer.
func Once(ctx context.Context) error {
	c := client.New(client.WithRetries(1))
	var err error
	for range 3 {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Literal: Tries 3 in a literal, Fetch tries once more.
func Literal(ctx context.Context) error {
	c := &client.Client{Tries: 3}
	var err error
	for range 2 {
		if err = c.Fetch(ctx); err == nil { // want `retry loop \(2 attempts\) wraps client.Client.Fetch, which retries 4× \(client.go:\d+\): up to 8 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// Service holds a client its constructor builds.
type Service struct {
	orders *client.Client
}

func NewService() *Service {
	return &Service{orders: client.New(client.WithRetries(2))}
}

// Orders: the field's client, built with WithRetries(2), around 4.
func (s *Service) Orders(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = s.orders.Get(ctx); err == nil { // want `retry loop \(4 attempts\) wraps client.Client.Get, which retries 2× \(client.go:\d+\): up to 8 attempts per call`
			return nil
		}
		pause(ctx)
	}
	return err
}

// Given: a client handed in has a count set at run time.
func Given(ctx context.Context, c *client.Client) error {
	var err error
	for range 3 {
		if err = c.Get(ctx); err == nil { // want `retry loop \(3 attempts\) wraps client.Client.Get, which retries a number of times set at run time \(client.go:\d+\): attempts multiply`
			return nil
		}
		pause(ctx)
	}
	return err
}
