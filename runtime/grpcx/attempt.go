package grpcx

import (
	"context"
	"strconv"

	"google.golang.org/grpc/metadata"
)

// AttemptMetadata is the metadata key that tells a server its caller
// retries this call, and which attempt it is (1 for the first): the gRPC
// twin of retry.AttemptHeader. UnaryRetry and StreamRetry send it on
// calls made inside a retry layer that retries (retry.Retrying), and
// never outside one; UnaryServer and StreamServer put it back into the
// handler's context for callers they trust (retry.WithCaller), where the
// handler's retry layers leave to the caller the failures it retries.
const AttemptMetadata = "retry-attempt"

// withAttempt returns ctx whose outgoing metadata says attempt n, or says
// nothing when n is 0: a call outside any retry layer must not carry an
// attempt number that metadata forwarded from elsewhere put there.
func withAttempt(ctx context.Context, n int) context.Context {
	have := metadata.ValueFromOutgoingContext(ctx, AttemptMetadata)
	if n < 1 {
		if len(have) == 0 {
			return ctx
		}
		md, _ := metadata.FromOutgoingContext(ctx)
		md.Delete(AttemptMetadata)
		return metadata.NewOutgoingContext(ctx, md)
	}
	v := strconv.Itoa(n)
	if len(have) == 0 {
		return metadata.AppendToOutgoingContext(ctx, AttemptMetadata, v)
	}
	if len(have) == 1 && have[0] == v {
		return ctx
	}
	md, _ := metadata.FromOutgoingContext(ctx)
	md.Set(AttemptMetadata, v)
	return metadata.NewOutgoingContext(ctx, md)
}
