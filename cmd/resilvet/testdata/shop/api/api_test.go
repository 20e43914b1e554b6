package api

import (
	"context"
	"testing"
)

func helper(ctx context.Context) { work(context.Background()) }

func TestNothing(t *testing.T) { helper(t.Context()) }
