package withtests

import (
	"context"
	"testing"
)

func helper(ctx context.Context) error {
	return work(context.Background()) // want `context.Background\(\) passed to withtests.work`
}

func TestX(t *testing.T) { _ = helper(t.Context()) }
