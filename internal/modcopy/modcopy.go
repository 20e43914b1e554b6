// Package modcopy copies a module out of the module cache, whose files
// are read-only, to a directory the project's own checks can write to:
// the corpus check and the ledger's replay analyse a copy, apply fixes to
// it and let the go command add to its go.sum.
package modcopy

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Writable copies the tree at src to dst and makes every file and
// directory of the copy writable by its owner.
func Writable(dst, src string) error {
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return err
	}
	return filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
}
