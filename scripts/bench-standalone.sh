#!/usr/bin/env bash
# Measures the standalone driver (staticcheck's runner) against staticcheck
# itself and against go vet -vettool=resilvet, side by side, first run and
# rerun, on the standard library, golang.org/x/tools and real modules from
# the module cache (copied to a temporary directory).
#
# Every run starts from a copy of one Go build cache whose compiled export
# data is warm, so the figures are the analysis, not compiling. The warm-up
# compiles what each driver asks for: go vet with a no-op tool, and the
# go list -export query the runners make, test variants included (without
# it, the first runner measured would pay for compiling the test variants,
# and its peak RSS would be the compiler's):
#   resilvet-first / resilvet-rerun          resilvet PATTERN, empty then warm $RESILVET_CACHE
#   resilvet-tests-first / -rerun            resilvet -tests PATTERN, the variants staticcheck analyses
#   staticcheck-first / staticcheck-rerun    staticcheck PATTERN, empty then warm $STATICCHECK_CACHE
#   vettool-first / vettool-rerun            go vet -vettool=resilvet PATTERN, vet results cold then warm
# Wall time and peak RSS (the largest single process, from GNU time).
#
# Usage: scripts/bench-standalone.sh [target...]   (default: std xtools caddy nats)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$ROOT"
go build -o "$W/resilvet" ./cmd/resilvet
go build -o "$W/nopvet" ./internal/cmd/nopvet
GOBIN="$W" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2

. "$ROOT/scripts/benchlib.sh"

measure() { # name dir cmd...
	local name=$1 dir=$2; shift 2
	local out
	out=$(cd "$dir" && /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1)
	printf "%-22s %8s s %8.0f MB\n" "$name" "${out% *}" "$(( ${out#* } / 1024 ))"
}

echo "go: $(go version)  cpus: $(nproc)"
for target in "${@:-std xtools caddy nats}"; do
	for t in $target; do
		case $t in
		std) dir=$(go env GOROOT)/src; pat=./... ;;
		xtools) copy_module xtools golang.org/x/tools@v0.52.0; dir=$W/xtools; pat=./... ;;
		caddy) copy_module caddy github.com/caddyserver/caddy/v2@v2.11.9; dir=$W/caddy; pat=./... ;;
		nats) copy_module nats github.com/nats-io/nats-server/v2@v2.15.2; dir=$W/nats; pat=./... ;;
		*) echo "unknown target $t"; exit 2 ;;
		esac
		n=$(cd "$dir" && GOFLAGS=-mod=mod go list $pat 2>/dev/null | wc -l)
		echo "== $t ($n packages)"
		export GOFLAGS=-mod=mod
		rm -rf "$W/base"
		(cd "$dir" && GOCACHE="$W/base" go vet -vettool="$W/nopvet" $pat >/dev/null 2>&1 || true)
		(cd "$dir" && GOCACHE="$W/base" go list -e -compiled -export -test -deps -pgo=off $pat >/dev/null 2>&1 || true)
		rm -rf "$W/gc" "$W/rc" "$W/sc" && cp -a "$W/base" "$W/gc"
		export GOCACHE="$W/gc" RESILVET_CACHE="$W/rc" STATICCHECK_CACHE="$W/sc"
		measure resilvet-first "$dir" "$W/resilvet" $pat || true
		measure resilvet-rerun "$dir" "$W/resilvet" $pat || true
		rm -rf "$W/rc"
		measure resilvet-tests-first "$dir" "$W/resilvet" -tests $pat || true
		measure resilvet-tests-rerun "$dir" "$W/resilvet" -tests $pat || true
		measure staticcheck-first "$dir" "$W/staticcheck" $pat || true
		measure staticcheck-rerun "$dir" "$W/staticcheck" $pat || true
		rm -rf "$W/gc" && cp -a "$W/base" "$W/gc"
		measure vettool-first "$dir" go vet -vettool="$W/resilvet" $pat || true
		measure vettool-rerun "$dir" go vet -vettool="$W/resilvet" $pat || true
		unset GOFLAGS GOCACHE RESILVET_CACHE STATICCHECK_CACHE
	done
done
