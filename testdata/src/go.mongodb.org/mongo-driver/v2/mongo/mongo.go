// Package mongo is a stub of the MongoDB driver's collection API.
package mongo

import "context"

type Collection struct{}
type SingleResult struct{}

func (c *Collection) FindOne(ctx context.Context, filter any) *SingleResult { return nil }
func (c *Collection) Name() string                                          { return "" }
