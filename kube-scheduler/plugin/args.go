package plugin

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// Mode says how much of the scheduling cycle the engine decides.
type Mode string

const (
	// ModePlugin: the engine's per-node verdicts and scores feed upstream's
	// Filter and Score; upstream's selectHost picks among the top scores.
	ModePlugin Mode = "Plugin"
	// ModeAlgorithm: the engine picks the node (filter, score, select);
	// upstream keeps its queue, assume, bind and events.
	ModeAlgorithm Mode = "Algorithm"
)

// Args are the LibSched plugin's arguments, given in the profile's
// pluginConfig (KubeSchedulerConfiguration.profiles[].pluginConfig[].args),
// decoded by frameworkruntime.DecodeInto as out-of-tree plugins' args are.
type Args struct {
	// Mode is ModePlugin (default) or ModeAlgorithm.
	Mode Mode `json:"mode,omitempty"`
	// PercentageOfNodesToScore is the engine's percentageOfNodesToScore
	// (0..100, 0 = adaptive), used in ModeAlgorithm only: in ModePlugin
	// the engine evaluates every node and upstream's own
	// percentageOfNodesToScore decides how many it asks about.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
	// Seed seeds the engine's choice among equal top scores (ModeAlgorithm).
	Seed uint64 `json:"seed,omitempty"`
}

// ArgsHelp describes Args for the command's --help.
const ArgsHelp = `  mode: Plugin (default; the engine answers Filter and Score for the
        default plugins it implements) or Algorithm (the engine filters,
        scores and selects the node; upstream keeps queue, assume, bind)
  percentageOfNodesToScore: 0..100, 0 = adaptive (Algorithm mode only)
  seed: seeds the engine's choice among equal top scores`

// decodeArgs decodes and validates the plugin args; nil means defaults.
func decodeArgs(obj runtime.Object) (Args, error) {
	var args Args
	if err := frameworkruntime.DecodeInto(obj, &args); err != nil {
		return args, fmt.Errorf("LibSched args: %w", err)
	}
	if args.Mode == "" {
		args.Mode = ModePlugin
	}
	if args.Mode != ModePlugin && args.Mode != ModeAlgorithm {
		return args, fmt.Errorf("LibSched args: mode: unsupported value %q: want %q or %q", args.Mode, ModePlugin, ModeAlgorithm)
	}
	if p := args.PercentageOfNodesToScore; p != nil && (*p < 0 || *p > 100) {
		return args, fmt.Errorf("LibSched args: percentageOfNodesToScore: %d not in 0..100", *p)
	}
	return args, nil
}

// engineConfig is the engine's configuration document (docs/api.md,
// "Config") for args: one default profile, which every pod is sent to.
func engineConfig(args Args) ([]byte, error) {
	cfg := map[string]any{"seed": args.Seed}
	switch {
	case args.Mode == ModePlugin:
		// Upstream asks Filter about any node: the engine must have an
		// answer for each.
		cfg["percentageOfNodesToScore"] = 100
	case args.PercentageOfNodesToScore != nil:
		cfg["percentageOfNodesToScore"] = *args.PercentageOfNodesToScore
	}
	return json.Marshal(cfg)
}
