// Package retry is a stub of go-grpc-middleware v2's retry interceptors
// for tests.
package retry

import (
	"time"

	"google.golang.org/grpc"
)

type CallOption struct{ grpc.CallOption }

// WithMax sets the retries after the first attempt (0 by default: none).
func WithMax(maxRetries uint) CallOption { return CallOption{} }

func UnaryClientInterceptor(optFuncs ...CallOption) grpc.UnaryClientInterceptor { return nil }

func WithPerRetryTimeout(timeout time.Duration) CallOption { return CallOption{} }
