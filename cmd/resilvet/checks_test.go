package main

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/analyzers"
)

func TestValidateCheckList(t *testing.T) {
	for _, ok := range []string{"", "all", "*", "inherit", "ctxdrop", "CtxDrop", "all,-ctxdrop", "notimeout, retrystack", "-hedgeidem"} {
		assert.NoError(t, validateCheckList("checks", ok), ok)
	}
	for _, bad := range []string{"ctxdorp", "notimeout,bogus", "-bogus", "ctx*", "SA1000", ",", "notimeout,"} {
		err := validateCheckList("checks", bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "the analyzers are ctxdrop, hedgeidem, notimeout, retrystack", bad)
	}
}

func TestSelectAnalyzers(t *testing.T) {
	suite := analyzers.All()
	names := func(list string) []string {
		var out []string
		for _, a := range selectAnalyzers(suite, list) {
			out = append(out, a.Name)
		}
		return out
	}
	assert.Equal(t, []string{"notimeout"}, names("notimeout"))
	assert.Equal(t, []string{"hedgeidem", "notimeout", "retrystack"}, names("all,-ctxdrop"))
	assert.Equal(t, []string{"hedgeidem", "notimeout", "retrystack"}, names("-ctxdrop"))
	assert.Equal(t, []string{"ctxdrop", "notimeout"}, names("ctxdrop,notimeout"))
	assert.Equal(t, []string{"ctxdrop", "hedgeidem", "notimeout", "retrystack"}, names("inherit"))
	assert.Equal(t, "notimeout", checkerChecks([]string{"-json", "-checks", "notimeout", "./..."}))
	assert.Equal(t, "ctxdrop", checkerChecks([]string{"--checks=ctxdrop", "x.cfg"}))
	assert.Empty(t, checkerChecks([]string{"-json", "./..."}))
}

func TestToggles(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-ctxdrop=false"}, "all,-ctxdrop"},
		{[]string{"-checks=notimeout,ctxdrop", "-ctxdrop=false"}, "notimeout,ctxdrop,-ctxdrop"},
		{[]string{"-notimeout", "-ctxdrop=false"}, "notimeout"},
		{nil, "inherit"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		checks := fs.String("checks", "inherit", "")
		tg := registerToggles(fs)
		require.NoError(t, fs.Parse(tc.args))
		require.NoError(t, applyToggles(fs, tg))
		assert.Equal(t, tc.want, *checks, tc.args)
	}
}
