package syntax

import "context"

func F(ctx context.Context) {
	g(context.Background()
}
