#!/usr/bin/env bash
# Measures the cost of resilvet against plain go vet, in one run, on the
# standard library and on golang.org/x/tools/... (a copy of the module in
# the module cache). For each target and each of RUNS rounds it times:
#   vet       go vet PATTERN                          (the baseline)
#   vettool   go vet -vettool=resilvet PATTERN
#   resilvet  resilvet PATTERN                        (standalone driver)
# Every run starts from a copy of the same build cache, prepared by a go vet
# run with a no-op tool: compiled export data is warm, vet results are cold.
# Wall time and peak RSS (the largest single process, from GNU time) are
# printed per run, then the medians and the ratios to plain go vet.
#
# With BASE_REV set (a commit), it also times go vet -vettool with the
# resilvet built from that commit (vettool-base), to measure what a change
# costs, e.g. BASE_REV=a5f1f96 for the last AST-only summary.
#
# Usage: [BASE_REV=REV] scripts/bench-vet.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$ROOT"
go build -o "$W/resilvet" ./cmd/resilvet
go build -o "$W/nopvet" ./internal/cmd/nopvet
if [ -n "${BASE_REV:-}" ]; then
	mkdir -p "$W/base-src"
	git -C "$ROOT" archive "$BASE_REV" | tar -x -C "$W/base-src"
	(cd "$W/base-src" && go build -o "$W/resilvet-base" ./cmd/resilvet)
fi
cp -r "$(go list -m -f '{{.Dir}}' golang.org/x/tools)" "$W/xtools"
chmod -R u+w "$W/xtools"
(cd "$W/xtools" && go mod download)

measure() { # name dir cmd...
	local name=$1 dir=$2; shift 2
	rm -rf "$W/cache" && cp -a "$W/base" "$W/cache"
	local out
	out=$(cd "$dir" && GOCACHE="$W/cache" /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1)
	echo "$name $out"
}

echo "go: $(go version)  cpus: $(nproc)  runs: $RUNS"
for target in std xtools; do
	if [ "$target" = std ]; then dir=$ROOT; pat=std; else dir=$W/xtools; pat=./...; fi
	rm -rf "$W/base"
	(cd "$dir" && GOCACHE="$W/base" go vet -vettool="$W/nopvet" $pat >/dev/null 2>&1 || true)
	: >"$W/$target.txt"
	for i in $(seq "$RUNS"); do
		measure vet "$dir" go vet $pat >>"$W/$target.txt" || true
		measure vettool "$dir" go vet -vettool="$W/resilvet" $pat >>"$W/$target.txt" || true
		measure resilvet "$dir" "$W/resilvet" $pat >>"$W/$target.txt" || true
		if [ -n "${BASE_REV:-}" ]; then
			measure vettool-base "$dir" go vet -vettool="$W/resilvet-base" $pat >>"$W/$target.txt" || true
		fi
	done
	echo "== $target ($pat)"
	cat "$W/$target.txt"
	python3 - "$W/$target.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3:
        rows.setdefault(parts[0], []).append((float(parts[1]), int(parts[2])))
med = {k: (statistics.median(w for w, _ in v), statistics.median(m for _, m in v)) for k, v in rows.items()}
base = med.get("vet")
print("%-9s %9s %10s %8s %8s" % ("driver", "wall s", "RSS MB", "x wall", "x RSS"))
for k in ("vet", "vettool", "resilvet", "vettool-base"):
    if k in med:
        w, m = med[k]
        print("%-9s %9.1f %10.0f %8.2f %8.2f" % (k, w, m / 1024, w / base[0], m / base[1]))
PY
done
