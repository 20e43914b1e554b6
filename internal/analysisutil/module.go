package analysisutil

import (
	"bufio"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/analysis"
)

// ModulePath returns the path of the module that holds the package under
// analysis, or "" when it cannot be told. Drivers built on go/packages
// (the checker, go vet) set pass.Module; staticcheck's runner does not,
// so the module is then found from the package's files: the nearest
// go.mod above them, or, for a vendored package, vendor/modules.txt.
// Rules that tell the user's code from a dependency's must not depend on
// the driver.
func ModulePath(pass *analysis.Pass) string {
	if pass.Module != nil {
		return pass.Module.Path
	}
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if !filepath.IsAbs(name) {
			continue // not a file on disk (a cgo or test harness name)
		}
		return moduleOfDir(filepath.Dir(name), pass.Pkg.Path())
	}
	return ""
}

// modules memoises directory → module path: every package of a run asks,
// and the answer for a directory does not change within a run.
var modules sync.Map

func moduleOfDir(dir, pkgPath string) string {
	if m, ok := modules.Load(dir); ok {
		return m.(string)
	}
	m := ""
	if cached, ok := moduleCacheModule(dir); ok {
		// A module without a go.mod of its own (v2.2.1+incompatible)
		// would otherwise find none, or one further up.
		m = cached
	} else if i := strings.LastIndex(filepath.ToSlash(dir), "/vendor/"); i >= 0 {
		m = vendoredModule(filepath.Join(dir[:i], "vendor", "modules.txt"), pkgPath)
	} else {
		for d := dir; ; d = filepath.Dir(d) {
			if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
				m = modfile.ModulePath(data)
				break
			}
			if parent := filepath.Dir(d); parent == d {
				break
			}
		}
	}
	modules.Store(dir, m)
	return m
}

// moduleCacheModule returns the module of a directory in the module
// cache, from its path: <cache>/<escaped module path>@<version>/….
func moduleCacheModule(dir string) (string, bool) {
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		gopath := filepath.SplitList(build.Default.GOPATH)
		if len(gopath) == 0 {
			return "", false
		}
		cache = filepath.Join(gopath[0], "pkg", "mod")
	}
	rel, err := filepath.Rel(cache, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	at := strings.Index(rel, "@")
	if at <= 0 {
		return "", false
	}
	path, err := module.UnescapePath(rel[:at])
	if err != nil {
		return "", false
	}
	return path, true
}

// vendoredModule returns the module that vendor/modules.txt lists
// pkgPath under ("# example.com/mod v1.2.3" followed by its packages).
func vendoredModule(modulesTxt, pkgPath string) string {
	f, err := os.Open(modulesTxt)
	if err != nil {
		return ""
	}
	defer f.Close()
	module := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			fields := strings.Fields(line[2:])
			module = ""
			if len(fields) > 0 {
				module = fields[0]
			}
		case line == pkgPath && module != "":
			return module
		}
	}
	return ""
}
