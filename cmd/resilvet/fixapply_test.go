package main

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"honnef.co/go/tools/lintcmd/runner"
)

// textEditOf builds a runner edit of file replacing [start, end) with text.
func textEditOf(file string, start, end int, text string) runner.TextEdit {
	return runner.TextEdit{
		Position: token.Position{Filename: file, Offset: start},
		End:      token.Position{Filename: file, Offset: end},
		NewText:  []byte(text),
	}
}

func fixOf(edits ...runner.TextEdit) runner.SuggestedFix {
	return runner.SuggestedFix{Message: "fix", TextEdits: edits}
}

func TestFixSetMerges(t *testing.T) {
	s := newFixSet()
	assert.True(t, s.add(fixOf(textEditOf("a.go", 10, 12, "x"), textEditOf("a.go", 0, 0, "import \"time\"\n"))))
	assert.True(t, s.add(fixOf(textEditOf("a.go", 20, 22, "y"), textEditOf("a.go", 0, 0, "import \"time\"\n"))), "the same import added twice is added once")
	assert.Len(t, s.files["a.go"], 3)
	assert.False(t, s.add(fixOf(textEditOf("a.go", 11, 14, "z"))), "overlaps a taken edit")
	assert.False(t, s.add(fixOf(textEditOf("a.go", 0, 0, "import \"context\"\n"))), "another insertion at the same place")
	assert.False(t, s.add(fixOf(textEditOf("a.go", 21, 21, "w"))), "an insertion inside a replaced range")
	assert.True(t, s.add(fixOf(textEditOf("a.go", 12, 12, "!"))), "an insertion where a range ends touches nothing")
	assert.False(t, s.add(fixOf(textEditOf("b.go", 0, 1, "p"), textEditOf("a.go", 10, 11, "q"))), "a fix is taken whole or not at all")
	assert.Empty(t, s.files["b.go"])
	assert.False(t, s.add(fixOf(textEditOf("", 0, 1, "p"))), "an edit with no file")
	assert.False(t, s.add(fixOf(textEditOf("c.go", 5, 2, "p"))), "a negative range")
	assert.Equal(t, 3, len(s.taken))
}

func TestApplyAndDiff(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	src := "package a\n\nfunc f() {\n\tg(1)\n}\n\nfunc g(int) {}\n"
	require.NoError(t, os.WriteFile(name, []byte(src), 0o600))
	s := newFixSet()
	at := bytes.Index([]byte(src), []byte("1"))
	require.True(t, s.add(fixOf(textEditOf(name, at, at+1, "2"))))
	files, errs := s.applyAll()
	require.Empty(t, errs)
	require.Len(t, files, 1)
	assert.Equal(t, "package a\n\nfunc f() {\n\tg(2)\n}\n\nfunc g(int) {}\n", string(files[0].new))
	assert.Equal(t, 1, s.appliedIn(files))
	var out bytes.Buffer
	require.NoError(t, writeDiff(&out, "a.go", files[0]))
	assert.Equal(t, "--- a/a.go\n+++ b/a.go\n@@ -1,7 +1,7 @@\n package a\n \n func f() {\n-\tg(1)\n+\tg(2)\n }\n \n func g(int) {}\n", out.String())

	// A result that does not parse is refused, and the file left alone.
	s = newFixSet()
	require.True(t, s.add(fixOf(textEditOf(name, at, at+1, "("))))
	files, errs = s.applyAll()
	assert.Empty(t, files)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "would not parse")
	assert.Equal(t, 0, s.appliedIn(files))
}

func TestHunks(t *testing.T) {
	var a, b []string
	for i := range 30 {
		line := string(rune('a'+i%26)) + "\n"
		a = append(a, line)
		b = append(b, line)
	}
	b[2] = "X\n"
	b = append(b[:25], append([]string{"new\n"}, b[25:]...)...)
	var out bytes.Buffer
	require.NoError(t, writeDiff(&out, "f", fixedFile{old: []byte(join(a)), new: []byte(join(b))}))
	assert.Equal(t, "--- a/f\n+++ b/f\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+X\n d\n e\n f\n@@ -23,6 +23,7 @@\n w\n x\n y\n+new\n z\n a\n b\n", out.String())
	// No newline at the end.
	out.Reset()
	require.NoError(t, writeDiff(&out, "f", fixedFile{old: []byte("a\nb"), new: []byte("a\nc")}))
	assert.Equal(t, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n", out.String())
}

func join(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.String()
}
