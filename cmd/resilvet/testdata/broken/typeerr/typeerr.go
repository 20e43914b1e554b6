package typeerr

import "context"

func F(ctx context.Context) {
	undefined(context.Background())
}
