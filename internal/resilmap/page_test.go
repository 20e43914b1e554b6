package resilmap

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// This file has the helpers the tests share: reading the sample maps,
// rendering them, reading the rendered page's tags back, and the search
// box's contract computed from the map.

func readSample(t testing.TB, name string) *Map {
	t.Helper()
	return readMapFile(t, filepath.Join("testdata", name))
}

// readMapFile reads the map-json file at path.
func readMapFile(t testing.TB, path string) *Map {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, err := ReadJSON(f)
	require.NoError(t, err, path)
	return m
}

// samples lists the sample maps in testdata.
func samples(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func render(t testing.TB, m *Map) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, m))
	return buf.String()
}

// tag is a start tag of a rendered page, with its attributes unescaped.
type tag struct {
	name  string
	attrs map[string]string
}

func (t tag) hasClass(class string) bool {
	return slices.Contains(strings.Fields(t.attrs["class"]), class)
}

var (
	// The page quotes every attribute value with double quotes, and
	// html/template escapes the quotes inside, so a value is [^"]*.
	tagPattern  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*)\s*/?>`)
	attrPattern = regexp.MustCompile(`([^\s"'<>/=]+)(?:="([^"]*)")?`)
	// rawText is the content of the page's script and style sheet, which
	// is not markup.
	rawText = regexp.MustCompile(`(?s)(<(?:script|style)\b[^>]*>).*?(</(?:script|style)>)`)
)

// tags returns the start tags of page, in order, leaving out the content
// of script and style elements.
func tags(page string) []tag {
	page = rawText.ReplaceAllString(page, "$1$2")
	var out []tag
	for _, m := range tagPattern.FindAllStringSubmatch(page, -1) {
		t := tag{name: strings.ToLower(m[1]), attrs: map[string]string{}}
		for _, a := range attrPattern.FindAllStringSubmatch(m[2], -1) {
			t.attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2])
		}
		out = append(out, t)
	}
	return out
}

// selectTags returns the tags named name that have the class.
func selectTags(all []tag, name, class string) []tag {
	var out []tag
	for _, t := range all {
		if t.name == name && t.hasClass(class) {
			out = append(out, t)
		}
	}
	return out
}

// mentions reports whether term occurs, whatever its case, in a string
// the page shows of p, its entry or its call: what the search box
// promises to match.
func mentions(m *Map, p *Path, term string) bool {
	term = strings.ToLower(term)
	for _, s := range pathStrings(m, p) {
		if strings.Contains(strings.ToLower(s), term) {
			return true
		}
	}
	return false
}

// pathStrings returns every non-empty string of p, of its entry and of its
// call but their IDs. It walks the structs by reflection so that a field
// added to the model is searched for here without anyone thinking of it,
// and TestSearchTextCoversEveryString then fails until the page has it.
func pathStrings(m *Map, p *Path) []string {
	var out []string
	for _, e := range m.Entries {
		if e.ID == p.Entry {
			collectStrings(reflect.ValueOf(e), &out)
		}
	}
	for _, c := range m.Calls {
		if c.ID == p.Call {
			collectStrings(reflect.ValueOf(c), &out)
		}
	}
	collectStrings(reflect.ValueOf(*p), &out)
	return out
}

func collectStrings(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); s != "" {
			*out = append(*out, s)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			collectStrings(v.Elem(), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectStrings(v.Index(i), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			switch v.Type().Field(i).Name {
			case "ID", "Entry", "Call": // IDs, which the page does not show
				continue
			}
			collectStrings(v.Field(i), out)
		}
	}
}

// assertHas and assertHasNot check a page for s without printing the
// whole page when they fail.
func assertHas(t *testing.T, page, s string) {
	t.Helper()
	if !strings.Contains(page, s) {
		t.Errorf("the page does not have %q", s)
	}
}

func assertHasNot(t *testing.T, page, s string) {
	t.Helper()
	if i := strings.Index(page, s); i >= 0 {
		t.Errorf("the page has %q: …%s…", s, page[max(0, i-80):min(len(page), i+len(s)+80)])
	}
}
