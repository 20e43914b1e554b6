// Package libs holds retry layers written with libraries.
package libs

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	backoff7 "github.com/cenkalti/backoff/v7"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/resilvet/resilvet/runtime/retry"

	"retrystack/api"
)

type Service struct{ api *api.API }

// BackoffCapped retries three times (two retries) around a call that
// retries nine times.
func (s *Service) BackoffCapped(ctx context.Context) error {
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2)
	return backoff.Retry(func() error {
		_, err := s.api.GetAccount(ctx, "1") // want `backoff.Retry \(3 attempts\) wraps api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 27 attempts per call`
		return err
	}, backoff.WithContext(b, ctx))
}

// BackoffDefault is bounded by elapsed time only.
func (s *Service) BackoffDefault(ctx context.Context) error {
	return backoff.RetryNotify(func() error {
		_, err := s.api.GetAccount(ctx, "1") // want `backoff.RetryNotify \(unbounded\) wraps api.API.GetAccount, which retries 3× .*: attempts without bound per call`
		return err
	}, backoff.NewExponentialBackOff(), func(error, time.Duration) {})
}

// BackoffOff makes no retry: WithMaxRetries(b, 0).
func (s *Service) BackoffOff(ctx context.Context) error {
	return backoff.Retry(func() error {
		_, err := s.api.GetAccount(ctx, "1")
		return err
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 0))
}

// BackoffV5 retries four times.
func (s *Service) BackoffV5(ctx context.Context) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) {
		return s.api.GetAccount(ctx, "1") // want `backoff.Retry \(4 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 36 attempts per call`
	}, backoff5.WithMaxTries(4), backoff5.WithMaxElapsedTime(time.Minute))
}

// BackoffV7 retries twice: v7 has v5's API.
func (s *Service) BackoffV7(ctx context.Context) (string, error) {
	return backoff7.Retry(ctx, func() (string, error) {
		return s.api.GetAccount(ctx, "1") // want `backoff.Retry \(2 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 18 attempts per call`
	}, backoff7.WithMaxTries(2))
}

// RetryGoDefault makes ten attempts.
func (s *Service) RetryGoDefault(ctx context.Context) error {
	return retrygo.Do(func() error {
		_, err := s.api.GetAccount(ctx, "1") // want `retry.Do \(10 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 90 attempts per call`
		return err
	}, retrygo.Context(ctx))
}

// RetryGoForever retries until it succeeds: Attempts(0).
func (s *Service) RetryGoForever(ctx context.Context) error {
	return retrygo.Do(func() error { // want `retry.Do is not given the context in scope, so it goes on retrying and sleeping after the caller has given up \(cancelled or past its deadline\); give it the context with retry.Context\(ctx\)`
		_, err := s.api.GetAccount(ctx, "1") // want `retry.Do \(unbounded\) wraps api.API.GetAccount`
		return err
	}, retrygo.Attempts(0))
}

// RetryGoOnce is one attempt: Attempts(1).
func (s *Service) RetryGoOnce(ctx context.Context) (string, error) {
	return retrygo.DoWithData(func() (string, error) {
		return s.api.GetAccount(ctx, "1")
	}, retrygo.Attempts(1), retrygo.Delay(time.Second))
}

var policy = &retry.Policy{MaxAttempts: 4}

// RuntimeNested: a runtime layer inside another makes one attempt, so
// they do not multiply.
func RuntimeNested(ctx context.Context, fetch func(context.Context) error) error {
	return retry.Do(ctx, policy, func(ctx context.Context) error {
		return retry.Do(ctx, nil, fetch)
	})
}

// RuntimeAllowNested: the inner policy multiplies on purpose.
func (s *Service) RuntimeAllowNested(ctx context.Context) error {
	return retry.Do(ctx, nil, func(ctx context.Context) error {
		return retry.Do(ctx, &retry.Policy{MaxAttempts: 2, AllowNested: true}, s.ping) // want `retry.Do \(3 attempts\) wraps libs.Service.RuntimeAllowNested \(closure\), which retries 2× with retry.Do: up to 6 attempts per call`
	})
}

// RuntimeNestedParam retries a function it is given in two runtime
// layers, the inner one multiplying: what its callers hand it is retried
// six times.
func RuntimeNestedParam(ctx context.Context, fetch func(context.Context) error) error {
	return retry.Do(ctx, nil, func(ctx context.Context) error {
		return retry.Do(ctx, &retry.Policy{MaxAttempts: 2, AllowNested: true}, fetch)
	})
}

// CallsNestedParam hands it an outbound call.
func (s *Service) CallsNestedParam(ctx context.Context) error {
	return RuntimeNestedParam(ctx, s.ping) // want `retry.Do in libs.RuntimeNestedParam \(3 attempts\) wraps libs.RuntimeNestedParam \(closure\), which retries 2× with retry.Do \(libs.go:\d+\): up to 6 attempts per call`
}

func (s *Service) ping(ctx context.Context) error {
	_, err := s.api.Lookup(ctx)
	return err
}

// RuntimeInLoop: a runtime layer inside a hand-written loop does not know
// it is nested.
func (s *Service) RuntimeInLoop(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = retry.Do(ctx, policy, func(ctx context.Context) error { // want `retry loop \(3 attempts\) wraps retry.Do \(4 attempts\): up to 12 attempts per call`
			return s.ping(ctx)
		})
		if err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry loop around retry.Do sleeps without its context`
	}
	return err
}

// RuntimeInLoopNested: the same around a call that retries itself.
func (s *Service) RuntimeInLoopNested(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = retry.Do(ctx, policy, func(ctx context.Context) error { // want `retry loop \(3 attempts\) wraps retry.Do \(4 attempts\) around api.API.GetAccount, which retries 3× .*: up to 108 attempts per call`
			_, err := s.api.GetAccount(ctx, "1")
			return err
		})
		if err == nil {
			return nil
		}
		backoffWait(ctx, i)
	}
	return err
}

func backoffWait(ctx context.Context, i int) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(i) * time.Second):
	}
}

// RuntimeAround: the runtime layer around a hand-written one multiplies.
func (s *Service) RuntimeAround(ctx context.Context) error {
	return retry.Do(ctx, nil, func(ctx context.Context) error {
		_, err := s.api.GetAccount(ctx, "1") // want `retry.Do \(3 attempts\) wraps api.API.GetAccount, which retries 3× .*: up to 27 attempts per call`
		return err
	})
}

// RuntimeAroundTwoPaths: the callee's runtime path yields inside this
// runtime layer, its loop path does not: the nest is the loop's.
func (s *Service) RuntimeAroundTwoPaths(ctx context.Context, fast bool) error {
	return retry.Do(ctx, nil, func(ctx context.Context) error {
		return s.twoPaths(ctx, fast) // want `retry.Do \(3 attempts\) wraps libs.Service.twoPaths, which retries 3×: up to 9 attempts per call`
	})
}

func (s *Service) twoPaths(ctx context.Context, fast bool) (err error) {
	if fast {
		return retry.Do(ctx, &retry.Policy{MaxAttempts: 5}, s.ping)
	}
	for i := 0; i < 3; i++ {
		if err = s.ping(ctx); err == nil {
			return nil
		}
		backoffWait(ctx, i)
	}
	return err
}

// Reacquire calls a retrying API between attempts, but its failure ends
// the loop: the loop retries ping, not the API call, so nothing nests.
func (s *Service) Reacquire(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err := s.api.GetAccount(ctx, "1"); err != nil {
			return err
		}
		if err = s.ping(ctx); err == nil {
			return nil
		}
		backoffWait(ctx, i)
	}
	return err
}

// Retryable sends through a retryablehttp client in a loop of its own.
func Retryable(url string) error {
	c := retryablehttp.NewClient()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.Get(url); err == nil { // want `retry loop \(3 attempts\) wraps retryablehttp.Client.Get \(5 attempts\): up to 15 attempts per call`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// RetryableOff: RetryMax 0 makes the client a single attempt.
func RetryableOff(url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.Get(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Standard sends with the *http.Client of a retrying client: its
// transport retries RetryMax (2) times after the first attempt.
func Standard(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	hc := rc.StandardClient()
	var err error
	for i := 0; i < 2; i++ {
		if _, err = hc.Get(url); err == nil { // want `retry loop \(2 attempts\) wraps retryablehttp.Client.StandardClient \(3 attempts\): up to 6 attempts per call; the client already retries`
			return nil
		}
		backoffWait(ctx, i)
	}
	return err
}
