package modcopy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWritable(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(src, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "p", "a.go"), []byte("package p\n"), 0o444))
	require.NoError(t, os.Chmod(filepath.Join(src, "p"), 0o555))
	t.Cleanup(func() { os.Chmod(filepath.Join(src, "p"), 0o755) })

	dst := filepath.Join(t.TempDir(), "copy")
	require.NoError(t, Writable(dst, src))
	data, err := os.ReadFile(filepath.Join(dst, "p", "a.go"))
	require.NoError(t, err)
	assert.Equal(t, "package p\n", string(data))
	assert.NoError(t, os.WriteFile(filepath.Join(dst, "p", "a.go"), []byte("package q\n"), 0o644), "the copied file is writable")
	assert.NoError(t, os.WriteFile(filepath.Join(dst, "p", "b.go"), nil, 0o644), "the copied directory is writable")
}
