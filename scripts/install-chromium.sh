#!/usr/bin/env bash
# Installs Chromium from the Debian archive when no Chromium or Chrome is
# on PATH, for the resilience map's browser test (TestMapInBrowser in
# internal/resilmap), which skips without one. Idempotent: with a browser
# already on PATH it only prints its version. Installing needs root or sudo.
set -euo pipefail

find_browser() {
	local b
	for b in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$b" >/dev/null 2>&1; then
			command -v "$b"
			return 0
		fi
	done
	return 1
}

if ! browser=$(find_browser); then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "install-chromium: no apt-get; install Chromium or Chrome with this system's package manager" >&2
		exit 1
	fi
	if [ "$(id -u)" -eq 0 ]; then
		as_root=()
	elif command -v sudo >/dev/null 2>&1; then
		as_root=(sudo)
	else
		echo "install-chromium: not root and no sudo; install the chromium package as root" >&2
		exit 1
	fi
	"${as_root[@]}" apt-get update
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
	browser=$(find_browser) || {
		echo "install-chromium: chromium installed but not on PATH" >&2
		exit 1
	}
fi
echo "$browser: $("$browser" --version)"
