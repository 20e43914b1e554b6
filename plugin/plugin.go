// Package plugin registers resilvet's analyzers with golangci-lint's
// module plugin system. Each analyzer is a linter of its own (ctxdrop,
// hedgeidem, notimeout, retrystack), so users get //nolint:ctxdrop
// granularity and per-linter enable/disable and settings.
//
// Import it for its side effect from a golangci-lint build:
//
//	import _ "github.com/resilvet/resilvet/plugin"
//
// Settings (linters.settings.custom.<name>.settings) are typed and
// validated: an unknown key is an error, as golangci-lint expects. They map
// onto the command line's options (analyzers.Options):
//
//	include-tests: true                        # -resilvet.include-tests
//	outbound: ["(*example.com/kv.Client).Get"] # -resilvet.outbound
//	timeout-interceptors: ["example.com/rpc.Timeout"] # -resilvet.timeout-interceptors
//	transport-timeouts: false                  # -resilvet.transport-timeouts=false
//	edge: true                                 # notimeout: -notimeout.edge
//	main: true                                 # notimeout: -notimeout.main
//	client-timeout: 5s                         # notimeout: -notimeout.client-timeout
//	min-product: 8                             # retrystack: -retrystack.min-product
//	retries: blind                             # hedgeidem: -hedgeidem.retries
//	key-headers: ["Idempotency-Key"]           # hedgeidem: -hedgeidem.key-headers
//	grpc-prefixes: ["Create", "Charge"]        # hedgeidem: -hedgeidem.grpc-prefixes
//	idempotent-methods: ["/shop.Orders/CreateOrder"] # hedgeidem: -hedgeidem.idempotent-methods
//
// Each linter gets exactly its own settings. Linters whose outbound,
// timeout-interceptors and transport-timeouts are the same share one
// summary of each package; give them the same values, or each computes
// its own.
package plugin

import (
	"fmt"
	"sync"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
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
	// interceptors setting a deadline; TransportTimeouts, true when
	// absent, counts an http.Transport with ResponseHeaderTimeout and a
	// dialer timeout as a bound. Like Outbound they are shared by every
	// resilvet linter.
	TimeoutInterceptors []string `json:"timeout-interceptors"`
	TransportTimeouts   *bool    `json:"transport-timeouts"`
	// Edge, Main and ClientTimeout are notimeout's: report handlers whose
	// r.Context() reaches outbound work unbounded, report in one-shot
	// package main, and the duration its fixes write ("10s").
	Edge          bool   `json:"edge"`
	Main          bool   `json:"main"`
	ClientTimeout string `json:"client-timeout"`
	// MinProduct is retrystack's: report nested retry layers only above
	// this many attempts (0, the default, reports any nesting).
	MinProduct int `json:"min-product"`
	// Retries, KeyHeaders, GRPCPrefixes and IdempotentMethods are
	// hedgeidem's: which retry layers to report (all, blind, off), the
	// idempotency key headers, the gRPC method-name prefixes of methods
	// that are not idempotent, and the gRPC methods that are idempotent
	// whatever their names.
	Retries           string   `json:"retries"`
	KeyHeaders        []string `json:"key-headers"`
	GRPCPrefixes      []string `json:"grpc-prefixes"`
	IdempotentMethods []string `json:"idempotent-methods"`
}

type linter struct {
	name string
	opts analyzers.Options
}

func newPlugin(name string) register.NewPlugin {
	return func(raw any) (register.LinterPlugin, error) {
		s, err := register.DecodeSettings[Settings](raw)
		if err != nil {
			return nil, fmt.Errorf("%s settings: %w", name, err)
		}
		opts := analyzers.Options{
			IncludeTests:            s.IncludeTests,
			Outbound:                s.Outbound,
			TimeoutInterceptors:     s.TimeoutInterceptors,
			IgnoreTransportTimeouts: s.TransportTimeouts != nil && !*s.TransportTimeouts,
			Edge:                    s.Edge,
			Main:                    s.Main,
			MinProduct:              s.MinProduct,
			HedgeRetries:            s.Retries,
			KeyHeaders:              s.KeyHeaders,
			GRPCPrefixes:            s.GRPCPrefixes,
			IdempotentMethods:       s.IdempotentMethods,
		}
		if s.ClientTimeout != "" {
			d, err := time.ParseDuration(s.ClientTimeout)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("%s settings: client-timeout: want a positive duration such as 10s, got %q", name, s.ClientTimeout)
			}
			opts.ClientTimeout = d
		}
		// Validated now, so a typo fails when golangci-lint starts.
		if err := opts.Validate(); err != nil {
			return nil, fmt.Errorf("%s settings: %w", name, err)
		}
		return &linter{name: name, opts: opts}, nil
	}
}

// summaries holds one summary analyzer per SummaryKey: golangci-lint
// builds each linter's analyzers separately, and linters with the same
// summary options must share one summary analyzer to have each package
// summarised once.
var summaries struct {
	sync.Mutex
	byKey map[string]*analysis.Analyzer
}

func summaryFor(opts *analyzers.Options) *analysis.Analyzer {
	summaries.Lock()
	defer summaries.Unlock()
	key := opts.SummaryKey()
	if sum := summaries.byKey[key]; sum != nil {
		return sum
	}
	if summaries.byKey == nil {
		summaries.byKey = map[string]*analysis.Analyzer{}
	}
	sum := analyzers.NewSummary(opts)
	summaries.byKey[key] = sum
	return sum
}

// BuildAnalyzers returns a fresh analyzer bound to the linter's settings.
func (l *linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	for _, a := range analyzers.On(summaryFor(&l.opts), &l.opts) {
		if a.Name == l.name {
			return []*analysis.Analyzer{a}, nil
		}
	}
	return nil, fmt.Errorf("internal error: no analyzer %q", l.name)
}

// GetLoadMode asks for type information: every analyzer needs it.
func (l *linter) GetLoadMode() string { return register.LoadModeTypesInfo }
