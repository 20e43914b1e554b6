#!/usr/bin/env bash
# Builds resilvet's analyzers against the golang.org/x/tools version that
# gopls v0.23.0 pins (older than the v0.52.0 resilvet requires), proving
# they use only APIs both have, so a custom gopls can link them.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GOPLS=v0.23.0
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
go mod download -json "golang.org/x/tools/gopls@$GOPLS" >/dev/null
XTOOLS=$(awk '$1=="golang.org/x/tools"{print $2}' "$(go env GOMODCACHE)/cache/download/golang.org/x/tools/gopls/@v/$GOPLS.mod")
cat >go.mod <<MOD
module check
go 1.26.0
require github.com/resilvet/resilvet v0.0.0
replace github.com/resilvet/resilvet => $ROOT
replace golang.org/x/tools => golang.org/x/tools $XTOOLS
MOD
cat >main.go <<'SRC'
package main

import (
	"fmt"

	"github.com/resilvet/resilvet/analyzers"
)

func main() {
	for _, a := range analyzers.All() {
		fmt.Println(a.Name)
	}
}
SRC
GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod tidy
go build -o /dev/null .
# Prove the build really used the old x/tools.
used=$(go list -deps -f '{{with .Module}}{{.Path}} {{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}{{end}}' . | grep '^golang.org/x/tools ' | sort -u)
[ "$used" = "golang.org/x/tools $XTOOLS" ] || { echo "built with $used, want $XTOOLS" >&2; exit 1; }
echo "analyzers build against golang.org/x/tools $XTOOLS (gopls $GOPLS)"
