// Package ctxdrop is resilvet's ctxdrop analyzer for Bazel's nogo: see
// package nogo.
package ctxdrop

import "github.com/resilvet/resilvet/nogo"

// Analyzer is ctxdrop with the shared options among its flags.
var Analyzer = nogo.Analyzer("ctxdrop")
