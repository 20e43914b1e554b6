package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/analyzers"
)

// knownFlags returns every flag some mode of the binary accepts: the
// standalone run's (the runner's, the analyzer options, the toggles, the
// fix modes, the baseline) and x/tools' checker's own.
func knownFlags() map[string]bool {
	have := map[string]bool{}
	newCommand(new(analyzers.Options)).FlagSet().VisitAll(func(f *flag.Flag) { have[f.Name] = true })
	for _, name := range []string{"json", "V", "flags", "c", "test", "cpuprofile", "memprofile", "trace", "debug", "h", "help"} {
		have[name] = true // x/tools' checker's, and help's
	}
	return have
}

// flagRef finds a flag named in prose: a dash at the start of a word,
// then a lowercase name (-checks, -notimeout.main, -resilvet.outbound).
// A name followed by ".<" or ".*" is a pattern (-resilvet.<name>), not a flag.
var flagRef = regexp.MustCompile("(?:^|[\\s(`\"'=])-([a-z][a-z0-9]*(?:[.-][a-z0-9]+)*)(\\.[<*])?")

// TestDocumentedFlagsExist checks every flag that help, an analyzer's
// documentation (-explain) and the docs name against the flags the binary
// accepts: help once named -main and -client-timeout, which every mode
// refused.
func TestDocumentedFlagsExist(t *testing.T) {
	have := knownFlags()
	texts := map[string]string{}
	var help bytes.Buffer
	require.Equal(t, 0, printHelp(&help, nil))
	texts["resilvet help"] = help.String()
	for _, a := range analyzers.All() {
		d, ok := analyzers.Documentation(a.Name)
		require.True(t, ok)
		texts["resilvet -explain "+a.Name] = d.Render()
	}
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	more, err := filepath.Glob("../../docs/analyzers/*.md")
	require.NoError(t, err)
	for _, name := range append(append(docs, more...), "../../README.md") {
		if filepath.Base(name) == "precision.md" {
			continue // it quotes the flags of the services it triaged
		}
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		texts[name] = string(data)
	}
	// Flags of other tools the docs quote in their own commands.
	others := map[string]bool{
		"vettool": true, "fixtool": true, "tags": true, "run": true, "bench": true, "benchmem": true,
		"count": true, "race": true, "o": true, "mod": true, "overlay": true, "cpu": true, "timeout": true,
		"v": true, "x": true, "m": true, "l": true, "w": true, "d": true, "u": true, "n": true, "p": true,
		"fuzz": true, "fuzztime": true, "short": true, "trimpath": true, "ldflags": true, "e": true,
		"f": true, "json": true, "modfile": true, "exec": true, "failfast": true, "coverprofile": true,
		"memprofile": true, "cpuprofile": true, "benchtime": true, "s": true, "rf": true, "r": true,
		"rf.": true, "h": true, "help": true, "version": true, "i": true, "y": true, "q": true, "a": true,
		"c": true, "enable": true, "disable": true, "new-from-rev": true, "fix": true, "diff": true,
		"checks": true, "fail": true, "recursive": true, "headless": true, "no-sandbox": true,
		"disable-gpu": true, "max-time": true, "sSf": true, "fsSL": true, "sh": true, "g": true, "t": true,
		"k": true, "z": true, "b": true, "debug": true, "all": true, "alloc_space": true, "inuse_space": true,
		"top": true, "text": true, "ne": true, "eq": true, "gt": true, "lt": true, "ge": true, "le": true,
		"f.": true, "in": true, "extra": true, "list": true, "modules": true, "started": true, "healthcheck": true, "name": true, "verbose": true, "alpha": true, "delta-test": true, "geomean": true, "ignore": true,
	}
	for where, text := range texts {
		for _, m := range flagRef.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if m[2] != "" || have[name] || others[name] {
				continue
			}
			assert.Fail(t, "a flag no mode accepts", "%s names -%s", where, name)
		}
	}
}
