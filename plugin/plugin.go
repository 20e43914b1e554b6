// Package plugin registers resilvet's analyzers with golangci-lint's
// module plugin system. Each analyzer is a linter of its own (ctxdrop,
// and the others as they arrive), so users get //nolint:ctxdrop
// granularity and per-linter enable/disable and settings.
//
// Import it for its side effect from a golangci-lint build:
//
//	import _ "github.com/resilvet/resilvet/plugin"
//
// Settings (linters.settings.custom.<name>.settings) are typed and
// validated: an unknown key is an error, as golangci-lint expects. They map
// onto the command line's options:
//
//	include-tests: true                       # -resilvet.include-tests
//	outbound: ["(*example.com/kv.Client).Get"] # -resilvet.outbound
//	edge: true                                # notimeout: -notimeout.edge
//	main: true                                # notimeout: -notimeout.main
//	client-timeout: 5s                        # notimeout: -notimeout.client-timeout
package plugin

import (
	"fmt"
	"strings"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/summary"
)

func init() {
	for _, a := range analyzers.All() {
		register.Plugin(a.Name, newPlugin(a.Name))
	}
}

// Settings are the settings of every resilvet linter.
type Settings struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool `json:"include-tests"`
	// Outbound lists extra outbound functions by full name.
	Outbound []string `json:"outbound"`
	// TimeoutInterceptors names the functions that build gRPC client
	// interceptors setting a deadline; TransportTimeouts counts an
	// http.Transport with ResponseHeaderTimeout and a dialer timeout as a
	// bound. Like Outbound they are shared by every resilvet linter.
	TimeoutInterceptors []string `json:"timeout-interceptors"`
	TransportTimeouts   bool     `json:"transport-timeouts"`
	// Edge, Main and ClientTimeout are notimeout's: report handlers whose
	// r.Context() reaches outbound work unbounded, report in one-shot
	// package main, and the duration its fixes write ("10s").
	Edge          bool   `json:"edge"`
	Main          bool   `json:"main"`
	ClientTimeout string `json:"client-timeout"`
}

type linter struct {
	name     string
	settings Settings
}

func newPlugin(name string) register.NewPlugin {
	return func(raw any) (register.LinterPlugin, error) {
		s, err := register.DecodeSettings[Settings](raw)
		if err != nil {
			return nil, fmt.Errorf("%s settings: %w", name, err)
		}
		if len(s.Outbound) > 0 {
			// Validated now, so a typo fails when golangci-lint starts.
			if err := knowledge.AddOutbound(strings.Join(s.Outbound, ",")); err != nil {
				return nil, fmt.Errorf("%s settings: outbound: %w", name, err)
			}
		}
		if len(s.TimeoutInterceptors) > 0 {
			if err := summary.Analyzer.Flags.Set("timeout-interceptors", strings.Join(s.TimeoutInterceptors, ",")); err != nil {
				return nil, fmt.Errorf("%s settings: timeout-interceptors: %w", name, err)
			}
		}
		if s.TransportTimeouts {
			if err := summary.Analyzer.Flags.Set("transport-timeouts", "true"); err != nil {
				return nil, fmt.Errorf("%s settings: transport-timeouts: %w", name, err)
			}
		}
		if s.ClientTimeout != "" {
			d, err := time.ParseDuration(s.ClientTimeout)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("%s settings: client-timeout: want a positive duration such as 10s, got %q", name, s.ClientTimeout)
			}
		}
		return &linter{name: name, settings: s}, nil
	}
}

// BuildAnalyzers returns a fresh analyzer bound to the linter's settings.
func (l *linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	timeout, _ := time.ParseDuration(l.settings.ClientTimeout) // validated in newPlugin
	a, ok := analyzers.New(l.name, analyzers.Options{
		IncludeTests:  l.settings.IncludeTests,
		Edge:          l.settings.Edge,
		Main:          l.settings.Main,
		ClientTimeout: timeout,
	})
	if !ok {
		return nil, fmt.Errorf("internal error: no analyzer %q", l.name)
	}
	return []*analysis.Analyzer{a}, nil
}

// GetLoadMode asks for type information: every analyzer needs it.
func (l *linter) GetLoadMode() string { return register.LoadModeTypesInfo }
