package notests

import (
	"context"
	"testing"
)

func helper(ctx context.Context) error {
	return work(context.Background())
}

func TestX(t *testing.T) { _ = helper(t.Context()) }
