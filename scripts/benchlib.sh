# Shared by the benchmark scripts (sourced, not run): copy_module copies a
# module of the module proxy out of the read-only module cache into $W,
# writable, with its dependencies downloaded and its packages listed once
# so that the measured runs neither download nor resolve.
copy_module() { # name module@version
	local dir
	dir=$(cd "$W" && GOFLAGS=-mod=mod go mod download -json "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	cp -r "$dir" "$W/$1"
	chmod -R u+w "$W/$1"
	(cd "$W/$1" && GOFLAGS=-mod=mod go mod download >/dev/null 2>&1 && GOFLAGS=-mod=mod go list ./... >/dev/null 2>&1 || true)
}
