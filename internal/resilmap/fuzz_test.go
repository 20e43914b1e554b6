package resilmap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadJSONWriteHTML checks that any map ReadJSON accepts renders, and
// with one edge and one row per path, whatever its strings hold.
func FuzzReadJSONWriteHTML(f *testing.F) {
	for _, name := range samples(f) {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"version": 1, "entries": [{"id": ""}], "calls": [{"id": ""}], "paths": [{"entry": "", "call": "", "retry": {"product": "-1"}}, {"entry": "", "call": ""}]}`))
	f.Add([]byte(`{"version": 1, "entries": [{"id": "e", "name": "\u202e\u0000\ud800"}], "calls": [], "paths": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteHTML(&buf, m); err != nil {
			t.Fatalf("WriteHTML of a map ReadJSON accepted: %v", err)
		}
		page := buf.String()
		// A quote in the data is always escaped, so these prefixes are
		// the page's own markup.
		if n := strings.Count(page, `<path class="edge `); n != len(m.Paths) {
			t.Errorf("%d edges for %d paths", n, len(m.Paths))
		}
		if n := strings.Count(page, `<tr class="path `); n != len(m.Paths) {
			t.Errorf("%d rows for %d paths", n, len(m.Paths))
		}
		if n := strings.Count(page, "<script"); n != 1 {
			t.Errorf("%d script elements", n)
		}
	})
}
