#!/usr/bin/env bash
# Times each way of running resilvet, in one run, on the example service and
# on golang.org/x/tools/... (a copy of the module in the module cache), next
# to golangci-lint with its default ("standard") linters on the same
# packages, all after compiled export data is in the build cache. Needs bin/custom-gcl and bin/gopls-resilvet (scripts/check-*.sh
# build them). golangci-lint runs with a fresh results cache ("cold") and
# then again with it ("warm"); go vet with a fresh vet cache.
#
# Usage: scripts/bench-integrations.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
go build -o "$W/resilvet" ./cmd/resilvet
cp -r "$(go list -m -f '{{.Dir}}' golang.org/x/tools)" "$W/xtools"
chmod -R u+w "$W/xtools"
(cd "$W/xtools" && go mod download)
printf 'version: "2"\n' >"$W/standard.yml"
cp .golangci-plugin.yml "$W/resilvet.yml"

t() { # label dir cmd...: prints label and wall seconds
	local label=$1 dir=$2; shift 2
	local s e
	s=$(date +%s.%N)
	(cd "$dir" && "$@" >/dev/null 2>&1) || true
	e=$(date +%s.%N)
	python3 -c "import sys; print(\"%-48s %7.1f\" % (sys.argv[1], float(sys.argv[3]) - float(sys.argv[2])))" "$label" "$s" "$e"
}

for target in example xtools; do
	if [ "$target" = example ]; then dir=$ROOT; pat=./examples/...; else dir=$W/xtools; pat=./...; fi
	echo "== $target ($pat)"
	# Compile export data first, so no run pays for the Go build cache:
	# golangci-lint and go vet both need it, whichever runs first.
	(cd "$dir" && go list -export -deps -test "$pat" >/dev/null 2>&1) || true
	for cfg in resilvet standard; do
		rm -rf "$W/gcl-cache"
		t "golangci-lint ($cfg linters), cold cache" "$dir" env GOLANGCI_LINT_CACHE="$W/gcl-cache" "$ROOT/bin/custom-gcl" run -c "$W/$cfg.yml" "$pat"
		t "golangci-lint ($cfg linters), warm cache" "$dir" env GOLANGCI_LINT_CACHE="$W/gcl-cache" "$ROOT/bin/custom-gcl" run -c "$W/$cfg.yml" "$pat"
	done
	rm -rf "$W/gocache" && cp -a "$(go env GOCACHE)" "$W/gocache"
	t "go vet -vettool=resilvet" "$dir" env GOCACHE="$W/gocache" go vet -vettool="$W/resilvet" "$pat"
	t "go vet -vettool=resilvet, warm vet cache" "$dir" env GOCACHE="$W/gocache" go vet -vettool="$W/resilvet" "$pat"
	t "resilvet (standalone)" "$dir" "$W/resilvet" "$pat"
	if [ "$target" = example ]; then
		t "gopls-resilvet check (3 files)" "$dir" "$ROOT/bin/gopls-resilvet" check examples/checkout/checkout.go examples/checkout/payments/payments.go examples/checkout/recommend/recommend.go
	fi
done
