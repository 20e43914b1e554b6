// Package notimeout is resilvet's notimeout analyzer for Bazel's nogo: see
// package nogo.
package notimeout

import "github.com/resilvet/resilvet/nogo"

// Analyzer is notimeout with the shared options among its flags.
var Analyzer = nogo.Analyzer("notimeout")
