// Package option is a stub of openai-go's request options for tests.
package option

type RequestOption interface{ Apply() error }

type requestOption func() error

func (o requestOption) Apply() error { return o() }

// WithMaxRetries sets the retries after the first attempt (2 by default).
func WithMaxRetries(retries int) RequestOption { return requestOption(func() error { return nil }) }

func WithAPIKey(key string) RequestOption { return requestOption(func() error { return nil }) }
