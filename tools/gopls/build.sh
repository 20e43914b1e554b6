#!/usr/bin/env bash
# Builds bin/gopls-resilvet: gopls v0.23.0 with resilvet's analyzers, so
# editors show resilvet's findings as you type, with quick fixes.
#
# gopls has no plugin mechanism, so this is a local fork made at build time:
# gopls's source is copied from the module cache into tools/gopls/build/
# (never committed), our one registration file is added, and the result is
# built against the golang.org/x/tools version gopls v0.23.0 pins. Only this
# script and zz_resilvet.go.in are ours.
#
# Usage: tools/gopls/build.sh   (from anywhere; writes bin/gopls-resilvet)
set -euo pipefail
GOPLS=v0.23.0
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B="$HERE/build"
rm -rf "$B" && mkdir -p "$B"
cd "$B"
SRC=$(go mod download -json "golang.org/x/tools/gopls@$GOPLS" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
cp -r "$SRC" gopls-fork
chmod -R u+w gopls-fork
cp "$HERE/zz_resilvet.go.in" gopls-fork/internal/settings/zz_resilvet.go
XTOOLS=$(awk '$1=="golang.org/x/tools"{print $2}' gopls-fork/go.mod)
cat >go.mod <<MOD
module github.com/resilvet/resilvet/tools/gopls/build

go 1.26.0

require (
	github.com/resilvet/resilvet v0.0.0
	golang.org/x/tools/gopls $GOPLS
)

replace github.com/resilvet/resilvet => $ROOT

replace golang.org/x/tools/gopls => ./gopls-fork

replace golang.org/x/tools => golang.org/x/tools $XTOOLS
MOD
cat >tools.go <<'SRC'
//go:build tools

package build

import _ "golang.org/x/tools/gopls"
SRC
GOFLAGS=-mod=mod go mod tidy
mkdir -p "$ROOT/bin"
go build -trimpath -o "$ROOT/bin/gopls-resilvet" golang.org/x/tools/gopls
echo "built $ROOT/bin/gopls-resilvet (gopls $GOPLS, golang.org/x/tools $XTOOLS)"
