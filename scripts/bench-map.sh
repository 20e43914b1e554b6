#!/usr/bin/env bash
# Measures the resilience map against the standalone run on a module
# from the proxy (default nats-server v2.15.2): wall time and peak RSS of
# `resilvet ./...` (cold cache) and of `resilvet -f html ./...`, each run
# three times; prints one line per run. Usage: scripts/bench-map.sh [module@version]
set -euo pipefail
mod=${1:-github.com/nats-io/nats-server/v2@v2.15.2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/resilvet" ./cmd/resilvet)
src=$(GOFLAGS=-mod=mod go mod download -json "$mod" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
cp -r "$src" "$work/src" && chmod -R u+w "$work/src"
cd "$work/src"
export GOFLAGS=-mod=mod GOWORK=off
go list ./... >/dev/null # download the dependencies outside the measurements
measure() {
	local name=$1
	shift
	/usr/bin/time -f "$name %e s %M KB" "$@" >/dev/null 2>"$work/time" || true
	tail -1 "$work/time"
}
for i in 1 2 3; do
	measure standalone env RESILVET_CACHE="$(mktemp -d -p "$work")" "$work/resilvet" ./...
	measure map "$work/resilvet" -f html ./...
done
