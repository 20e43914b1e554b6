package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// Identifier computes findings' identities from their positions and the
// source files on disk, reading and parsing each file once. It is safe
// for concurrent use.
type Identifier struct {
	mu      sync.Mutex
	files   map[string]*source
	modules map[string]module // by directory
}

// source is a file as read, and its parse.
type source struct {
	text  []byte
	fset  *token.FileSet
	file  *ast.File // nil if it did not parse
	tf    *token.File
	lines []int // line start offsets, made on first use
}

// module is the module a directory belongs to.
type module struct{ dir, path string }

// NewIdentifier returns an Identifier.
func NewIdentifier() *Identifier {
	return &Identifier{files: map[string]*source{}, modules: map[string]module{}}
}

// Identify returns the identity of the finding of analyzer with message
// at [pos, end). A file that cannot be read or parsed still gives an
// identity, from the analyzer, the directory and the message.
func (x *Identifier) Identify(analyzer, message string, pos, end token.Position) Identity {
	id := Identity{Analyzer: analyzer, Message: StableMessage(message)}
	if pos.Filename == "" {
		return id
	}
	file, err := filepath.Abs(pos.Filename)
	if err != nil {
		file = pos.Filename
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	id.Package = x.packagePath(filepath.Dir(file))
	src := x.source(file)
	if src == nil {
		return id
	}
	start, stop := src.offset(pos), src.offset(end)
	if start < 0 {
		return id
	}
	if stop <= start {
		// No extent: the rest of the line.
		stop = start
		for stop < len(src.text) && src.text[stop] != '\n' {
			stop++
		}
	}
	h := sha256.Sum256([]byte(normalise(src.text[start:stop])))
	id.Source = hex.EncodeToString(h[:8])
	id.Function = src.enclosing(start)
	return id
}

// normalise returns Go source as its tokens, one space apart: the same
// for any spacing, line breaks and comments.
func normalise(text []byte) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(text)), text, func(token.Position, string) {}, 0)
	var toks []string
	for {
		_, tok, lit := sc.Scan()
		switch {
		case tok == token.EOF:
			return strings.Join(toks, " ")
		case tok == token.SEMICOLON && lit == "\n":
		case lit != "":
			toks = append(toks, lit)
		default:
			toks = append(toks, tok.String())
		}
	}
}

// source returns file read and parsed, or nil if it cannot be read.
// x.mu held.
func (x *Identifier) source(file string) *source {
	if s, ok := x.files[file]; ok {
		return s
	}
	var s *source
	if text, err := os.ReadFile(file); err == nil {
		s = &source{text: text, fset: token.NewFileSet()}
		s.file, _ = parser.ParseFile(s.fset, file, text, parser.SkipObjectResolution)
		if s.file != nil {
			s.tf = s.fset.File(s.file.Pos())
		}
	}
	x.files[file] = s
	return s
}

// offset returns the byte offset of p's line and column in the file, or
// -1.
func (s *source) offset(p token.Position) int {
	if s.lines == nil {
		s.lines = []int{0}
		for i, c := range s.text {
			if c == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	if p.Line < 1 || p.Line > len(s.lines) {
		return -1
	}
	off := s.lines[p.Line-1] + max(p.Column, 1) - 1
	if off > len(s.text) {
		return -1
	}
	return off
}

// enclosing names the top-level function or method holding offset.
func (s *source) enclosing(offset int) string {
	if s.file == nil || s.tf == nil || offset > s.tf.Size() {
		return ""
	}
	p := s.tf.Pos(offset)
	for _, d := range s.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || p < fd.Pos() || p >= fd.End() {
			continue
		}
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return fd.Name.Name
		}
		return "(" + receiver(fd.Recv.List[0].Type) + ")." + fd.Name.Name
	}
	return ""
}

// receiver is a receiver type as written, without type parameters.
func receiver(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return "*" + receiver(t.X)
	case *ast.IndexExpr:
		return receiver(t.X)
	case *ast.IndexListExpr:
		return receiver(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.ParenExpr:
		return receiver(t.X)
	}
	return "?"
}

// packagePath returns the import path of the package in dir: its
// module's path and the directory's path in the module, or dir itself
// outside a module. x.mu held.
func (x *Identifier) packagePath(dir string) string {
	m := x.moduleOf(dir)
	if m.path == "" {
		return filepath.ToSlash(dir)
	}
	rel, err := filepath.Rel(m.dir, dir)
	if err != nil || rel == "." {
		return m.path
	}
	return m.path + "/" + filepath.ToSlash(rel)
}

// moduleOf returns the module holding dir, looking up from it for a
// go.mod. x.mu held.
func (x *Identifier) moduleOf(dir string) module {
	if m, ok := x.modules[dir]; ok {
		return m
	}
	var m module
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		m = module{dir: dir, path: modfile.ModulePath(data)}
	} else if parent := filepath.Dir(dir); parent != dir {
		m = x.moduleOf(parent)
	}
	x.modules[dir] = m
	return m
}
