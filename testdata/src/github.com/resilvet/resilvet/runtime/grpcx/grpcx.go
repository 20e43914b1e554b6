// Package grpcx is a stub of the runtime's gRPC adapter for the
// analyzers' tests.
package grpcx

import (
	"time"

	"google.golang.org/grpc"
)

type DeadlineOptions struct {
	Default time.Duration
	Reserve time.Duration
}

func UnaryDeadline(o DeadlineOptions) grpc.UnaryClientInterceptor { return nil }

type RetryOptions struct{}

func UnaryRetry(o RetryOptions) grpc.UnaryClientInterceptor { return nil }
