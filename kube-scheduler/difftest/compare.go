package difftest

import (
	"fmt"
	"slices"
	"sort"
)

// compare lists every difference between upstream's decision and the
// engine's; nil means they agree on everything determined: a plugin
// error that ended the cycle, or each rejected
// node's code, plugin and reasons, the nodes evaluated, the feasible set, each feasible node's
// weighted score per plugin, the tie set, the FitError message (with
// preemption's), and the nominated node (one of upstream's tied
// candidates) with its victims.
func compare(up, eng *Decision) []string {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }

	if up.Error != "" || eng.Error != "" {
		if up.Error != eng.Error {
			add("plugin error:\n  upstream: %q\n  engine:   %q", up.Error, eng.Error)
		}
		return diffs // an error ends the cycle: nothing else was decided
	}

	if !slices.Equal(up.Unlisted, eng.Unlisted) {
		add("nodes without a status (not evaluated): upstream %v, engine %v", up.Unlisted, eng.Unlisted)
	}
	for _, node := range unionKeys(up.Rejected, eng.Rejected) {
		if slices.Contains(eng.Unlisted, node) || slices.Contains(up.Unlisted, node) {
			continue
		}
		u, uok := up.Rejected[node]
		e, eok := eng.Rejected[node]
		switch {
		case !uok:
			add("node %s: upstream feasible, engine rejected: %v", node, e)
		case !eok:
			add("node %s: upstream rejected: %v, engine feasible", node, u)
		case u.Code != e.Code || u.Plugin != e.Plugin || !slices.Equal(u.Reasons, e.Reasons):
			add("node %s: upstream %v, engine %v", node, u, e)
		}
	}
	if len(diffs) == 0 && !slices.Equal(up.Feasible, eng.Feasible) {
		add("feasible nodes: upstream %v, engine %v", up.Feasible, eng.Feasible)
	}
	if len(diffs) > 0 {
		return diffs // scores of different feasible sets are not comparable
	}
	if (up.Scores == nil) != (eng.Scores == nil) {
		add("scores: upstream scored %d nodes, engine %d", len(up.Scores), len(eng.Scores))
	}
	for _, node := range unionKeys(up.Scores, eng.Scores) {
		u, e := up.Scores[node], eng.Scores[node]
		for _, plugin := range unionKeys(u, e) {
			us, uok := u[plugin]
			es, eok := e[plugin]
			if uok != eok || us != es {
				add("node %s plugin %s: upstream score %s, engine %s", node, plugin, score(us, uok), score(es, eok))
			}
		}
	}
	if !slices.Equal(up.Top, eng.Top) {
		add("top-score nodes: upstream %v, engine %v", up.Top, eng.Top)
	}
	if up.Message != eng.Message {
		add("FitError message:\n  upstream: %q\n  engine:   %q", up.Message, eng.Message)
	}
	switch {
	case (len(up.Nominated) == 0) != (len(eng.Nominated) == 0):
		add("nominated node: upstream any of %v, engine %v", up.Nominated, eng.Nominated)
	case up.NominatedAny:
	case len(eng.Nominated) == 1 && !slices.Contains(up.Nominated, eng.Nominated[0]):
		add("nominated node: upstream any of %v, engine %s", up.Nominated, eng.Nominated[0])
	case len(eng.Nominated) == 1:
		if node := eng.Nominated[0]; !slices.Equal(up.Victims[node], eng.Victims[node]) {
			add("victims on %s: upstream %v, engine %v", node, up.Victims[node], eng.Victims[node])
		}
	}
	return diffs
}

func score(s int64, ok bool) string {
	if !ok {
		return "absent"
	}
	return fmt.Sprint(s)
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
