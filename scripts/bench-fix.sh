#!/usr/bin/env bash
# Measures the fix modes against the standalone run they are held to
# (within 1.2x of its peak memory): resilvet -fix and -diff run on
# staticcheck's runner, one package in memory at a time; resilvet -json is
# x/tools' checker, which holds every package of the run at once, as -fix
# did before. Each run starts with a cold $RESILVET_CACHE from a copy of
# one warm Go build cache, so the figures are analysis, not compiling.
# -fix runs on a fresh copy of the module each time (it writes files).
#   standalone      resilvet PATTERN
#   diff            resilvet -diff PATTERN
#   fix             resilvet -fix PATTERN (on a copy)
#   checker-json    resilvet -json PATTERN (x/tools' checker)
# Wall time and peak RSS (the largest single process, from GNU time).
#
# Usage: scripts/bench-fix.sh [target...]   (default: caddy nats)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$ROOT"
go build -o "$W/resilvet" ./cmd/resilvet
go build -o "$W/nopvet" ./internal/cmd/nopvet

. "$ROOT/scripts/benchlib.sh"

measure() { # name dir cmd...
	local name=$1 dir=$2; shift 2
	local out
	out=$(cd "$dir" && /usr/bin/time -f "%e %M %x" "$@" 2>&1 >/dev/null | tail -1)
	set -- $out
	printf "%-14s %8s s %8.0f MB  exit %s\n" "$name" "$1" "$(( $2 / 1024 ))" "$3"
}

echo "go: $(go version)  cpus: $(nproc)"
for t in ${@:-caddy nats}; do
	case $t in
	caddy) mod=github.com/caddyserver/caddy/v2@v2.11.9 ;;
	nats) mod=github.com/nats-io/nats-server/v2@v2.15.2 ;;
	*) echo "unknown target $t"; exit 2 ;;
	esac
	copy_module "$t" "$mod"
	dir=$W/$t
	export GOFLAGS=-mod=mod
	n=$(cd "$dir" && go list ./... 2>/dev/null | wc -l)
	echo "== $t ($n packages)"
	rm -rf "$W/base"
	(cd "$dir" && GOCACHE="$W/base" go vet -vettool="$W/nopvet" ./... >/dev/null 2>&1 || true)
	(cd "$dir" && GOCACHE="$W/base" go list -e -compiled -export -deps -pgo=off ./... >/dev/null 2>&1 || true)
	for mode in standalone diff fix checker-json; do
		rm -rf "$W/gc" "$W/rc" "$W/work" && cp -a "$W/base" "$W/gc" && cp -a "$dir" "$W/work"
		export GOCACHE="$W/gc" RESILVET_CACHE="$W/rc"
		case $mode in
		standalone) measure "$mode" "$W/work" "$W/resilvet" ./... || true ;;
		diff) measure "$mode" "$W/work" "$W/resilvet" -diff ./... || true ;;
		fix) measure "$mode" "$W/work" "$W/resilvet" -fix ./... || true ;;
		checker-json) measure "$mode" "$W/work" "$W/resilvet" -json ./... || true ;;
		esac
		unset GOCACHE RESILVET_CACHE
	done
	unset GOFLAGS
done
