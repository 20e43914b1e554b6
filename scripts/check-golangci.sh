#!/usr/bin/env bash
# End-to-end check of the golangci-lint integration, offline (module proxy
# only): builds bin/custom-gcl from tools/gcl, verifies .golangci-plugin.yml,
# runs it on the example service and checks that every analyzer's findings
# appear under their linter names, that //nolint:<analyzer> silences exactly
# that analyzer, that --fix applies the suggested fixes, and that SARIF is
# written. Cost: ~4 min with a cold build cache, ~15 s warm.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
GCL="$ROOT/bin/custom-gcl"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "check-golangci: $*" >&2; exit 1; }

start=$(date +%s)
(cd tools/gcl && go build -trimpath -o "$GCL" .)
echo "built custom-gcl in $(( $(date +%s) - start )) s"

"$GCL" config verify -c .golangci-plugin.yml || fail "config verify failed"

# A writable copy of the repository to edit.
copy() {
	rm -rf "$W/repo" && mkdir -p "$W/repo"
	git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$W/repo/"
}
lint() { # args: extra flags; prints issues, tolerates exit code 1 (issues found)
	(cd "$W/repo" && GOLANGCI_LINT_CACHE="$W/cache" "$GCL" run -c .golangci-plugin.yml \
		--output.text.print-issued-lines=false --show-stats=false "$@" ./examples/...) || [ $? -eq 1 ]
}

copy
out=$(lint)
echo "$out"
for want in \
	"examples/checkout/checkout.go:41:12: sql.DB.QueryRow ignores the caller's context while r.Context() is available" \
	"examples/checkout/checkout.go:48:35: context.Background() passed to payments.Client.Charge while r.Context() is available" \
	"examples/checkout/checkout.go:62:17: call to recommend.ForUser drops the caller's context" \
	"examples/checkout/payments/payments.go:48:14: http.NewRequest ignores the caller's context while ctx is available"; do
	grep -qF "$want" <<<"$out" || fail "missing finding: $want"
done
[ "$(grep -c '(ctxdrop)$' <<<"$out")" -eq 4 ] || fail "want 4 findings under the ctxdrop linter"
grep -qF "examples/checkout/checkout.go:92:19: retry loop (3 attempts) wraps recommend.Recent, which retries 3×" <<<"$out" || fail "missing the retrystack finding"
[ "$(grep -c '(retrystack)$' <<<"$out")" -eq 1 ] || fail "want 1 finding under the retrystack linter"
grep -qF "examples/checkout/payments/payments.go:38:12: retry loop (3 attempts) retries payments.Client.send, which sends a POST request without an Idempotency-Key header" <<<"$out" || fail "missing the hedgeidem finding"
# Related positions print as lines of their own, "hedgeidem(related information): …".
[ "$(grep -v 'related information' <<<"$out" | grep -c '(hedgeidem)$')" -eq 2 ] || fail "want 2 findings under the hedgeidem linter"

# //nolint:ctxdrop silences exactly that line's ctxdrop finding; a nolint
# for another linter silences nothing.
sed -i '41s|$| //nolint:ctxdrop // the cart read is cached|' "$W/repo/examples/checkout/checkout.go"
sed -i '48s|$| //nolint:notimeout // not this linter|' "$W/repo/examples/checkout/checkout.go"
out=$(lint)
grep -qF "checkout.go:41:" <<<"$out" && fail "//nolint:ctxdrop did not silence line 41"
grep -qF "checkout.go:48:35:" <<<"$out" || fail "//nolint:notimeout silenced a ctxdrop finding"
[ "$(grep -c '(ctxdrop)$' <<<"$out")" -eq 3 ] || fail "want 3 findings after one //nolint:ctxdrop"

# --fix applies the suggested fixes.
copy
lint --fix >/dev/null
grep -qF 's.payments.Charge(r.Context(), user, total)' "$W/repo/examples/checkout/checkout.go" || fail "--fix did not replace context.Background()"
grep -qF 's.db.QueryRowContext(r.Context(), "SELECT' "$W/repo/examples/checkout/checkout.go" || fail "--fix did not call QueryRowContext"
grep -qF 'http.NewRequestWithContext(ctx, http.MethodPost' "$W/repo/examples/checkout/payments/payments.go" || fail "--fix did not call NewRequestWithContext"
[ "$(grep -cF 'req.Header.Set("Idempotency-Key", rand.Text())' "$W/repo/examples/checkout/payments/payments.go")" -eq 2 ] || fail "--fix did not set the idempotency keys"
(cd "$W/repo" && go build ./examples/...) || fail "fixed example does not build"

# SARIF for code scanning.
copy
lint --output.sarif.path="$W/out.sarif" >/dev/null
python3 - "$W/out.sarif" <<'PY' || fail "bad SARIF"
import json, sys
s = json.load(open(sys.argv[1]))
# golangci-lint writes a finding's related positions as results of their
# own ("hedgeidem(related information): …").
results = [r for run in s["runs"] for r in run["results"] if "(related information)" not in r["message"]["text"]]
assert len(results) == 9, len(results)
rules = sorted(r["ruleId"] for r in results)
assert rules == ["ctxdrop"] * 4 + ["hedgeidem"] * 2 + ["notimeout"] * 2 + ["retrystack"], rules
PY
# A typo never turns the linters off: an unknown linter name and an
# unknown setting each fail the run, naming what is wrong.
copy
sed 's/^    - ctxdrop$/    - ctxdorp/' .golangci-plugin.yml >"$W/repo/typo-linter.yml"
if out=$(cd "$W/repo" && GOLANGCI_LINT_CACHE="$W/cache" "$GCL" run -c typo-linter.yml ./examples/... 2>&1); then
	fail "an unknown linter name (ctxdorp) passed: $out"
fi
grep -qF "ctxdorp" <<<"$out" || fail "the error does not name the unknown linter: $out"
sed 's/^          edge: false$/          edeg: false/' .golangci-plugin.yml >"$W/repo/typo-setting.yml"
if out=$(cd "$W/repo" && GOLANGCI_LINT_CACHE="$W/cache" "$GCL" run -c typo-setting.yml ./examples/... 2>&1); then
	fail "an unknown setting (edeg) passed: $out"
fi
grep -qF "edeg" <<<"$out" || fail "the error does not name the unknown setting: $out"

echo "check-golangci: ok"
