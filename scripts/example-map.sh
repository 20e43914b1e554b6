#!/usr/bin/env bash
# Writes the example service's resilience map to docs/examples: the
# map-json, the page, and the graph as an SVG picture for the README.
# CI's end-to-end tests (TestMap) fail when the committed map-json is
# stale.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o /tmp/resilvet-example-map ./cmd/resilvet
/tmp/resilvet-example-map -f map-json ./examples/checkout/... > docs/examples/checkout-map.json
/tmp/resilvet-example-map -f html ./examples/checkout/... > docs/examples/checkout-map.html
go run ./internal/resilmap/cmd/mapsvg < docs/examples/checkout-map.json > docs/examples/checkout-map.svg
