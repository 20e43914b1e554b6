// Package kong is a stub of the CLI framework for fixtures.
package kong

type Context struct{ Command string }
