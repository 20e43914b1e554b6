package baseline_test

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/resilvet/resilvet/internal/baseline"
)

// FuzzIdentify: any file content and any positions give an identity
// without a panic, and the same inputs the same identity.
func FuzzIdentify(f *testing.F) {
	f.Add([]byte("package p\n\nfunc F() { http.Get(u) }\n"), 3, 12, 3, 23, "m (a.go:3:12)")
	f.Add([]byte("package p\nfunc (r *T[K]) M() {\n\tgo x()\n}\n"), 3, 2, 2, 1, "")
	f.Add([]byte("not go at all \x00\xff"), 1, 1, 9, 9, "x")
	f.Add([]byte(""), 0, 0, 0, 0, "")
	f.Add([]byte("package p\n\nfunc F() { ctx := context.Background(); g(ctx) }\n"), 3, 19, 3, 39, "context.Background() reaches sql.DB.ExecContext (via p.g -> p.h (closure) -> sql.DB.ExecContext) with no deadline")
	f.Fuzz(func(t *testing.T, src []byte, line, col, endLine, endCol int, msg string) {
		dir := t.TempDir()
		file := filepath.Join(dir, "a.go")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		pos := token.Position{Filename: file, Line: line, Column: col}
		end := token.Position{Filename: file, Line: endLine, Column: endCol}
		a := baseline.NewIdentifier().Identify("notimeout", msg, pos, end)
		b := baseline.NewIdentifier().Identify("notimeout", msg, pos, end)
		if a != b {
			t.Fatalf("identities differ for the same inputs: %+v, %+v", a, b)
		}
	})
}

// FuzzRead: any file content is read as a baseline or refused with an
// error, never a panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"analyzer": "a", "package": "p", "message": "m", "source": "s", "count": 2}]}`))
	f.Add([]byte(`{"version": 1, "findings": null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "b.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := baseline.Read(path)
		if err == nil {
			m := baseline.NewMatcher(file)
			if m.Stale() < 0 {
				t.Fatal("negative stale count")
			}
		}
	})
}
