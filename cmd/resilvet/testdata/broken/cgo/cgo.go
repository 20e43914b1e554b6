package cgo

/*
static int answer(void) { return 42; }
*/
import "C"

import "context"

func work(ctx context.Context) int { _ = ctx.Err(); return int(C.answer()) }

func F(ctx context.Context) int {
	return work(context.Background())
}
