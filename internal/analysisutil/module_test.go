package analysisutil

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModuleCacheModule(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	m, ok := moduleCacheModule(filepath.Join(cache, "github.com", "!burnt!sushi", "toml@v1.4.0", "internal"))
	assert.True(t, ok)
	assert.Equal(t, "github.com/BurntSushi/toml", m, "the path is unescaped")
	m, ok = moduleCacheModule(filepath.Join(cache, "github.com", "cenkalti", "backoff@v2.2.1+incompatible"))
	assert.True(t, ok, "a module without a go.mod is named by its directory")
	assert.Equal(t, "github.com/cenkalti/backoff", m)
	_, ok = moduleCacheModule(filepath.Join(t.TempDir(), "example.com", "app"))
	assert.False(t, ok, "outside the cache")
	_, ok = moduleCacheModule(filepath.Join(cache, "cache", "download"))
	assert.False(t, ok, "no version in the path")
}

// TestGOROOT: the Go root std is judged by holds the standard library,
// whether it comes from the build or from the go command (binaries built
// with -trimpath, such as the gopls and golangci-lint builds, carry none).
func TestGOROOT(t *testing.T) {
	root := GOROOT()
	require.NotEmpty(t, root)
	fi, err := os.Stat(filepath.Join(root, "src", "runtime"))
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	assert.True(t, IsStdPath("net/http"))
	assert.False(t, IsStdPath("example.com/net/http"))
}
