// Package negatives holds loops that are not retry layers, around calls
// that retry: none of them is reported.
package negatives

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"retrystack/api"
)

type Service struct{ api *api.API }

type Page struct {
	Items []string
	Next  string
}

func (s *Service) list(ctx context.Context, token string) (Page, error) {
	_, err := s.api.GetAccount(ctx, token)
	return Page{}, err
}

// Paginate stops at the first error: the loop goes round for the next
// page, not for a failure.
func (s *Service) Paginate(ctx context.Context) ([]string, error) {
	var out []string
	token := ""
	for {
		p, err := s.list(ctx, token)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Next == "" {
			return out, nil
		}
		token = p.Next
	}
}

// Items goes over items, logging the ones that fail.
func (s *Service) Items(ctx context.Context, ids []string) {
	for _, id := range ids {
		if _, err := s.api.GetAccount(ctx, id); err != nil {
			log.Print(err)
			continue
		}
	}
}

// Failover tries each endpoint once: a range over items.
func (s *Service) Failover(ctx context.Context, ids []string) (string, error) {
	for i := 0; i < len(ids); i++ {
		name, err := s.api.GetAccount(ctx, ids[i])
		if err == nil {
			return name, nil
		}
	}
	return "", errors.New("no endpoint answered")
}

// ByKey goes over a map.
func (s *Service) ByKey(ctx context.Context, ids map[string]bool) string {
	for id := range ids {
		if name, err := s.api.GetAccount(ctx, id); err == nil {
			return name
		}
	}
	return ""
}

// FromChannel goes over what a channel delivers.
func (s *Service) FromChannel(ctx context.Context, ids <-chan string) string {
	for id := range ids {
		if name, err := s.api.GetAccount(ctx, id); err == nil {
			return name
		}
	}
	return ""
}

// Poll waits for a state, stopping on an error.
func (s *Service) Poll(ctx context.Context) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		name, err := s.api.GetAccount(ctx, "job")
		if err != nil {
			return err
		}
		if name == "done" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Supervise restarts a long-lived call whatever it returns: the loop
// never leaves on success.
func (s *Service) Supervise(ctx context.Context) {
	for {
		if _, err := s.api.GetAccount(ctx, "stream"); err != nil {
			log.Print(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// Once calls the retrying API once: one layer, nothing nested.
func (s *Service) Once(ctx context.Context) (string, error) {
	return s.api.GetAccount(ctx, "1")
}

// ContextErr goes round while the context is alive, not because a call
// failed.
func (s *Service) ContextErr(ctx context.Context, work chan string) {
	for {
		if err := ctx.Err(); err != nil {
			return
		}
		name, _ := s.api.GetAccount(ctx, <-work)
		log.Print(name)
	}
}

// Pump receives messages until the connection closes, pausing after
// repeated errors: a message loop, not a retry (the success branch goes
// round again for the next message, through a blocking select).
func (s *Service) Pump(ctx context.Context, out chan<- string, ping chan struct{}) {
	errCount := 0
	for {
		name, err := s.api.GetAccount(ctx, "next")
		if err != nil {
			if errors.Is(err, context.Canceled) {
				close(out)
				return
			}
			if errCount > 0 {
				time.Sleep(100 * time.Millisecond)
			}
			errCount++
			continue
		}
		errCount = 0
		select {
		case ping <- struct{}{}:
		default:
		}
		select {
		case out <- name:
		case <-time.After(time.Second):
			log.Print("dropped")
		}
	}
}

// Serve handles requests until reading fails, logging failed handlers:
// the loop goes round for the next request whatever the handler returned.
func (s *Service) Serve(ctx context.Context, next func(context.Context) (string, error), handle func(context.Context, string) error) {
	for {
		id, err := next(ctx)
		if err != nil {
			return
		}
		if err := handle(ctx, id); err != nil {
			log.Print(err)
		}
	}
}

// Refresh polls every interval and, after an error, sooner: a poller
// whose only way out is the context being done, not a retry loop.
func (s *Service) Refresh(ctx context.Context, every time.Duration, out chan<- string) {
	for tick := time.Tick(every); ; {
		name, err := s.api.GetAccount(ctx, "all")
		if err != nil {
			log.Print(err)
			time.Sleep(every / 2)
			continue
		}
		select {
		case out <- name:
		case <-ctx.Done():
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
	}
}

// Events prints what a channel delivers, skipping what it cannot decode:
// the only way out besides the channel's error is printing failing,
// which is no success of the decode.
func Events(ctx context.Context, events <-chan []byte, errs <-chan error, decode func([]byte) (string, error), print func(string) error) error {
	for {
		var e []byte
		select {
		case e = <-events:
		case err := <-errs:
			return err
		}
		v, err := decode(e)
		if err != nil {
			log.Print(err)
			continue
		}
		if err := print(v); err != nil {
			return err
		}
	}
}

// RemoveAll tries a local removal again after a pause: local work, no
// dependency to protect, whatever the pause ignores.
func RemoveAll(ctx context.Context, dir string) error {
	for i := 0; i < 5; i++ {
		err := os.RemoveAll(dir)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("busy")
}

// Throttle pauses 50 ms between rounds: a constant wait under a second
// outlives the deadline by too little to matter.
func (s *Service) Throttle(ctx context.Context) (string, error) {
	for ctx.Err() == nil {
		if name, err := s.api.Lookup(ctx); err == nil {
			return name, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "", ctx.Err()
}

type endpoint struct{ addr string }

type pool struct{ eps []*endpoint }

func (p *pool) pick() *endpoint {
	if len(p.eps) == 0 {
		return nil
	}
	return p.eps[0]
}

func (p *pool) drop(*endpoint) { p.eps = p.eps[1:] }

// Dial fails over from endpoint to endpoint until the pool runs out: a
// loop over what pick hands out.
func (p *pool) Dial(dial func(string) (string, error)) (string, error) {
	for {
		ep := p.pick()
		if ep == nil {
			return "", errors.New("no endpoint")
		}
		conn, err := dial(ep.addr)
		if err == nil {
			return conn, nil
		}
		p.drop(ep)
	}
}

type backoffState struct{ ctx context.Context }

func (b *backoffState) Ongoing() bool { return b.ctx.Err() == nil }
func (b *backoffState) Wait()         { <-time.After(time.Second) }

// Ongoing retries while a backoff's condition holds, which looks at the
// context: its count is unknown, not unbounded, and it leaves.
func (s *Service) Ongoing(ctx context.Context) error {
	b := &backoffState{ctx: ctx}
	var last error
	for b.Ongoing() {
		b.Wait()
		if _, err := s.api.Lookup(ctx); err != nil {
			last = err
			continue
		}
		return nil
	}
	return last
}

type event struct{ err error }

func (e *event) Err() error { return e.err }

// Watch restarts a watch whose channel ended with an error, and returns
// when the callback says stop: a supervisor of a stream, not a retry.
func (s *Service) Watch(ctx context.Context, watch func(context.Context) <-chan event, f func(event) bool) {
outer:
	for ctx.Err() == nil {
		for ev := range watch(ctx) {
			if err := ev.Err(); err != nil {
				log.Print(err)
				continue outer
			}
			if !f(ev) {
				return
			}
		}
	}
}

type stream interface {
	Recv() (string, error)
}

// Consume reads a stream until the handler says stop, skipping bad
// messages: the error is a message's.
func Consume(st stream, handle func(string) bool) {
	for {
		msg, err := st.Recv()
		if err != nil {
			log.Print(err)
			continue
		}
		if !handle(msg) {
			return
		}
	}
}
