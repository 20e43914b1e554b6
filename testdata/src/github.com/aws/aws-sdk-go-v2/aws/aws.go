// Package aws is a stub of aws-sdk-go-v2's aws package: the shared
// configuration and the retryer interface.
package aws

type Retryer interface {
	IsErrorRetryable(error) bool
	MaxAttempts() int
}

// NopRetryer makes one attempt.
type NopRetryer struct{}

func (NopRetryer) IsErrorRetryable(error) bool { return false }
func (NopRetryer) MaxAttempts() int            { return 1 }

type Config struct {
	Region           string
	RetryMaxAttempts int
	Retryer          func() Retryer
}
