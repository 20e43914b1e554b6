// Package retry is a stub of aws-sdk-go-v2's aws/retry: the standard
// retryer and its wrappers.
package retry

import "github.com/aws/aws-sdk-go-v2/aws"

type StandardOptions struct{ MaxAttempts int }

type Standard struct{ options StandardOptions }

func NewStandard(fnOpts ...func(*StandardOptions)) *Standard {
	o := StandardOptions{MaxAttempts: 3}
	for _, f := range fnOpts {
		f(&o)
	}
	return &Standard{options: o}
}

func (s *Standard) IsErrorRetryable(error) bool { return true }
func (s *Standard) MaxAttempts() int            { return s.options.MaxAttempts }

type withMaxAttempts struct {
	aws.Retryer
	max int
}

func (w *withMaxAttempts) MaxAttempts() int { return w.max }

func AddWithMaxAttempts(r aws.Retryer, max int) aws.Retryer { return &withMaxAttempts{r, max} }
