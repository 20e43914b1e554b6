#!/usr/bin/env bash
# End-to-end check of the editor integration: builds bin/gopls-resilvet
# (tools/gopls/build.sh), checks that "gopls check" reports every analyzer's
# findings on the example service (facts across packages included), that a
# quick fix is offered and applies to gofmt-clean code, and that gopls's
# "analyses" setting turns each analyzer off by name. Cost: ~2 min cold.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
G="$ROOT/bin/gopls-resilvet"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "check-gopls: $*" >&2; exit 1; }

start=$(date +%s)
tools/gopls/build.sh
echo "built gopls-resilvet in $(( $(date +%s) - start )) s"

out=$("$G" check examples/checkout/checkout.go examples/checkout/payments/payments.go 2>&1 || true)
echo "$out"
for want in \
	"checkout.go:41:12-" "sql.DB.QueryRow ignores the caller's context while r.Context() is available" \
	"checkout.go:48:35-" "context.Background() passed to payments.Client.Charge while r.Context() is available" \
	"checkout.go:62:17-" "call to recommend.ForUser drops the caller's context" \
	"payments.go:48:14-" "http.NewRequest ignores the caller's context while ctx is available" \
	"checkout.go:72:13-" "context.WithoutCancel(…), which drops the deadline, reaches sql.DB.ExecContext" \
	"checkout.go:92:19-" "retry loop (3 attempts) wraps recommend.Recent, which retries 3×" \
	"payments.go:38:12-" "retry loop (3 attempts) retries payments.Client.send, which sends a POST request"; do
	grep -qF "$want" <<<"$out" || fail "gopls check: missing $want"
done

# The quick fix is offered and applies to gofmt-clean code.
actions=$("$G" codeaction -kind=quickfix examples/checkout/checkout.go:48:35-48:55 2>&1)
echo "$actions"
grep -qF "Pass r.Context() instead of context.Background()" <<<"$actions" || fail "quick fix not offered"
mkdir -p "$W/repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$W/repo/"
(cd "$W/repo" && "$G" codeaction -kind=quickfix -exec -write examples/checkout/checkout.go:48:35-48:55)
grep -qF 's.payments.Charge(r.Context(), user, total)' "$W/repo/examples/checkout/checkout.go" || fail "quick fix not applied"
[ -z "$(gofmt -l "$W/repo/examples/checkout/checkout.go")" ] || fail "quick fix left checkout.go not gofmt-clean"

# gopls's analyses setting turns each analyzer off by name.
analyzers=$(go run ./cmd/resilvet -list-checks | awk '{print $1}')
[ -n "$analyzers" ] || fail "resilvet -list-checks listed no analyzers"
for a in $analyzers; do
	# hedgeidem's findings are in the payments client.
	f=examples/checkout/checkout.go
	[ "$a" = hedgeidem ] && f=examples/checkout/payments/payments.go
	on=$(go run ./internal/cmd/lspcheck -gopls "$G" -until "$a" "$f")
	off=$(go run ./internal/cmd/lspcheck -gopls "$G" -settle 20s -settings "{\"analyses\":{\"$a\":false}}" "$f")
	grep -q "^$a: " <<<"$on" || fail "$a: no diagnostics with default settings"
	grep -q "^$a: " <<<"$off" && fail "$a: diagnostics despite analyses.$a=false"
	echo "analyses.$a toggles: $(grep -c "^$a: " <<<"$on") findings on, 0 off"
done
echo "check-gopls: ok"
