// Package retrystack is resilvet's retrystack analyzer for Bazel's nogo:
// see package nogo.
package retrystack

import "github.com/resilvet/resilvet/nogo"

// Analyzer is retrystack with the shared options among its flags.
var Analyzer = nogo.Analyzer("retrystack")
