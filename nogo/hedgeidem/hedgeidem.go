// Package hedgeidem is resilvet's hedgeidem analyzer for Bazel's nogo:
// see package nogo.
package hedgeidem

import "github.com/resilvet/resilvet/nogo"

// Analyzer is hedgeidem with the shared options among its flags.
var Analyzer = nogo.Analyzer("hedgeidem")
