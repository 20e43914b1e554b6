package withtests

import "context"

func work(ctx context.Context) error { return ctx.Err() }
