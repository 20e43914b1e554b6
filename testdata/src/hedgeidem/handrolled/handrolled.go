// Package handrolled hedges by hand: the same work launched again while
// the first copy is in flight.
package handrolled

import (
	"context"
	"net/http"
	"net/smtp"
	"time"
)

type result struct {
	resp *http.Response
	err  error
}

func post(ctx context.Context, url string) (*http.Response, error) {
	return http.Post(url, "application/json", nil)
}

func get(ctx context.Context, url string) (*http.Response, error) {
	return http.Get(url)
}

// Race launches a copy, and another each time the timer fires before a
// result arrives: the first result wins.
func Race(ctx context.Context, url string) (*http.Response, error) {
	results := make(chan result, 3)
	for i := 0; i < 3; i++ {
		go func() { // want `a copy launched again when a timer fires hedges handrolled.Race \(closure\), which sends a POST request with http.Post, which cannot carry an idempotency key \(handrolled.go:18\)`
			resp, err := post(ctx, url)
			results <- result{resp, err}
		}()
		select {
		case r := <-results:
			return r.resp, r.err
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r := <-results
	return r.resp, r.err
}

// RaceReads hedges a read the same way: fine.
func RaceReads(ctx context.Context, url string) (*http.Response, error) {
	results := make(chan result, 2)
	for i := 0; i < 2; i++ {
		go func() {
			resp, err := get(ctx, url)
			results <- result{resp, err}
		}()
		select {
		case r := <-results:
			return r.resp, r.err
		case <-time.After(50 * time.Millisecond):
		}
	}
	r := <-results
	return r.resp, r.err
}

func notify(addr, to string, msg []byte) error {
	return smtp.SendMail(addr, nil, "noreply@example.com", []string{to}, msg)
}

// Late sends again from a timer if the first send is slow.
func Late(addr, to string, msg []byte) {
	done := make(chan struct{})
	t := time.AfterFunc(time.Second, func() { notify(addr, to, msg) }) // want `a copy started by time.AfterFunc hedges handrolled.notify, which sends mail with smtp.SendMail`
	go func() {
		notify(addr, to, msg)
		close(done)
		t.Stop()
	}()
	<-done
}

type pending struct {
	mu    chan struct{}
	tries int
}

func (p *pending) lock()   { p.mu <- struct{}{} }
func (p *pending) unlock() { <-p.mu }

// onReply schedules a delayed resend after a reply says nobody received
// the message: the first copy is not in flight, and the only work both
// run is the lock.
func (p *pending) onReply(addr, to string, msg []byte, received bool) {
	p.lock()
	defer p.unlock()
	if !received && p.tries < 3 {
		p.tries++
		time.AfterFunc(time.Second, func() {
			p.lock()
			defer p.unlock()
			resend(addr, to, msg)
		})
	}
}

func resend(addr, to string, msg []byte) { notify(addr, to, msg) }

// Twice launches one closure at once and again from a timer.
func Twice(ctx context.Context, url string) (*http.Response, error) {
	results := make(chan result, 2)
	send := func() {
		resp, err := post(ctx, url)
		results <- result{resp, err}
	}
	go send()
	t := time.AfterFunc(50*time.Millisecond, send) // want `a copy started by time.AfterFunc hedges handrolled.Twice \(closure\), which sends a POST request with http.Post`
	defer t.Stop()
	r := <-results
	return r.resp, r.err
}

// Collector runs its first report after a delay and then every few hours
// from a ticker: the timer starts a delayed first run, not a copy of work
// in flight.
func Collector(ctx context.Context, url string) {
	time.AfterFunc(5*time.Minute, func() { post(ctx, url) })
	t := time.NewTicker(3 * time.Hour)
	defer t.Stop()
	for range t.C {
		post(ctx, url)
	}
}

// Reporter sends, each time its timer fires, the batch that is due: each
// launch sends different work.
func Reporter(ctx context.Context, url string, in <-chan string) {
	var due []string
	sent := make(chan error, 1)
	for {
		select {
		case f := <-in:
			due = append(due, f)
		case <-time.After(time.Minute):
			batch := due
			due = nil
			go func() {
				_, err := http.Post(url+"/reports?n="+batch[0], "text/plain", nil)
				sent <- err
			}()
		case <-sent:
		}
	}
}

// Workers launch different work in a loop with no timer: no hedge.
func Workers(ctx context.Context, urls []string) {
	for _, u := range urls {
		go post(ctx, u)
	}
}
