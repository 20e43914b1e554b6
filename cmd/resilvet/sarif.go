package main

import (
	"slices"
	"strings"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// tidySARIF makes the runner's SARIF log, parsed, one that code scanning accepts
// and that is the same bytes for the same findings, and reports whether
// a package failed to load:
//   - a package that does not load is the tool's failure, not a finding:
//     its "compile" result (at line 0, which the schema forbids) becomes a
//     notification of the invocation, and the invocation is not
//     successful; the runner's other results (an unused //lint:ignore)
//     become warnings there too;
//   - the rules are sorted by id (the runner lists them in map order) and
//     link to resilvet's documentation, not the runner's.
func tidySARIF(log map[string]any) bool {
	loadFailed := false
	runs, _ := log["runs"].([]any)
	for _, r := range runs {
		run, _ := r.(map[string]any)
		if run == nil {
			continue
		}
		var kept, notes []any
		results, _ := run["results"].([]any)
		for _, res := range results {
			result, _ := res.(map[string]any)
			rule, _ := result["ruleId"].(string)
			if isAnalyzer(rule) {
				kept = append(kept, res)
				continue
			}
			level := "warning"
			if rule == "compile" {
				level = "error"
				loadFailed = true
			}
			notes = append(notes, notification(result, rule, level))
		}
		run["results"] = nonNil(kept)
		if invs, _ := run["invocations"].([]any); len(invs) > 0 {
			if inv, _ := invs[0].(map[string]any); inv != nil {
				if len(notes) > 0 {
					inv["toolExecutionNotifications"] = notes
				}
				if loadFailed {
					inv["executionSuccessful"] = false
				}
			}
		}
		tool, _ := run["tool"].(map[string]any)
		driver, _ := tool["driver"].(map[string]any)
		rules, _ := driver["rules"].([]any)
		for _, r := range rules {
			if rule, _ := r.(map[string]any); rule != nil {
				if id, _ := rule["id"].(string); isAnalyzer(id) {
					rule["helpUri"] = analysisutil.URL(id)
				}
			}
		}
		slices.SortFunc(rules, func(a, b any) int { return strings.Compare(ruleID(a), ruleID(b)) })
	}
	return loadFailed
}

// notification turns a runner result into a tool execution notification,
// keeping its location only when it has a line.
func notification(result map[string]any, rule, level string) map[string]any {
	n := map[string]any{
		"level":      level,
		"message":    result["message"],
		"descriptor": map[string]any{"id": rule},
	}
	if locs, _ := result["locations"].([]any); len(locs) > 0 {
		loc, _ := locs[0].(map[string]any)
		phys, _ := loc["physicalLocation"].(map[string]any)
		region, _ := phys["region"].(map[string]any)
		if line, _ := region["startLine"].(float64); line >= 1 {
			n["locations"] = locs[:1]
		}
	}
	return n
}

func ruleID(r any) string {
	rule, _ := r.(map[string]any)
	id, _ := rule["id"].(string)
	return id
}

// nonNil keeps an empty list a list: SARIF's results is an array.
func nonNil(xs []any) []any {
	if xs == nil {
		return []any{}
	}
	return xs
}
