// Command custom-gcl is golangci-lint v2.15.0 with resilvet's linters
// linked in, built offline from the Go module proxy alone (the official
// "golangci-lint custom" clones golangci-lint from GitHub).
//
//	cd tools/gcl && go build -trimpath -o ../../bin/custom-gcl .
//	bin/custom-gcl run -c .golangci-plugin.yml ./...
//
// The version is left empty on purpose: golangci-lint then keys its
// results cache on a hash of this binary, so a rebuilt plugin never serves
// stale findings (with a fixed version string it would).
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/resilvet/resilvet/plugin"
)

func main() {
	info := commands.BuildInfo{Version: "", Commit: "resilvet", GoVersion: "go", Date: "(unknown)"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
