package resilvettest

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/analysis/analysistest"
)

// CheckMessages asserts the house style of every diagnostic in results:
// one line, lowercase first letter, no trailing period, a category and a
// URL; fix messages start with a capitalised verb.
func CheckMessages(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		for _, d := range r.Diagnostics {
			m := d.Message
			switch {
			case m == "":
				t.Errorf("empty message")
			case strings.ContainsAny(m, "\n\r"):
				t.Errorf("multi-line message: %q", m)
			case unicode.IsUpper([]rune(m)[0]):
				t.Errorf("message starts with a capital: %q", m)
			case strings.HasSuffix(m, "."):
				t.Errorf("message ends with a period: %q", m)
			}
			if d.Category == "" || d.URL == "" {
				t.Errorf("diagnostic without category or URL: %q", m)
			}
			for _, f := range d.SuggestedFixes {
				if f.Message == "" || !unicode.IsUpper([]rune(f.Message)[0]) {
					t.Errorf("fix message must be a capitalised verb phrase: %q", f.Message)
				}
			}
		}
	}
}
