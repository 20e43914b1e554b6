package analysisutil

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
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
