// Package docs_test keeps the documentation honest: every snippet marked
// with a check comment is compared with the file it shows, parsed, or
// matched against the scripts CI runs.
package docs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var block = regexp.MustCompile("(?s)<!-- check: ([^>]*) -->\n```[a-z]*\n(.*?)```")

func TestSnippets(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	require.NoError(t, err)
	var scripts strings.Builder
	for _, s := range []string{"../.ci/run", "../scripts/check-golangci.sh", "../scripts/check-gopls.sh", "../tools/gopls/build.sh"} {
		b, err := os.ReadFile(s)
		require.NoError(t, err, s)
		scripts.Write(b)
	}
	checked := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, m := range block.FindAllStringSubmatch(string(src), -1) {
			kind, body := m[1], m[2]
			checked++
			switch {
			case strings.HasPrefix(kind, "file="):
				want, err := os.ReadFile(filepath.Join("..", strings.TrimPrefix(kind, "file=")))
				if assert.NoError(t, err, page) {
					assert.Equal(t, string(want), body, "%s: snippet differs from %s", page, kind)
				}
			case kind == "json":
				var v any
				assert.NoError(t, json.Unmarshal([]byte(body), &v), "%s: snippet is not JSON:\n%s", page, body)
			case kind == "ci":
				// Every flag and script the snippet uses must appear in
				// what CI runs, so a renamed flag breaks this test.
				for _, tok := range strings.Fields(body) {
					if strings.HasPrefix(tok, "-") || strings.HasSuffix(tok, ".sh") || strings.HasSuffix(tok, ".yml") {
						tok = strings.TrimSuffix(strings.SplitN(tok, "=", 2)[0], ")")
						assert.Contains(t, scripts.String(), strings.TrimPrefix(tok, "./"), "%s: %q is not exercised by CI", page, tok)
					}
				}
			default:
				t.Errorf("%s: unknown check %q", page, kind)
			}
		}
	}
	assert.Positive(t, checked)
}
