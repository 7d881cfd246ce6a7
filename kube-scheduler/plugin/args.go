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
	// percentageOfNodesToScore decides how many it asks about. Unset, the
	// profile's applies, else the top-level one; set, it must agree with
	// the profile's.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
	// Seed seeds the engine's choice among equal top scores (ModeAlgorithm).
	Seed uint64 `json:"seed,omitempty"`
	// Plugins are the engine's plugins, shaped as a profile's `plugins`
	// (config.Plugins: per extension point and multiPoint, enabled with
	// weights and disabled) and merged with upstream's defaults as a
	// profile's are; absent means the defaults. The profile's own
	// `plugins` say what upstream's framework runs around LibSched, so
	// they cannot also name what the engine runs (README.md).
	Plugins json.RawMessage `json:"plugins,omitempty"`
}

// ArgsHelp describes Args for the command's --help.
const ArgsHelp = `  mode: Plugin (default; the engine answers Filter and Score for the
        default plugins it implements) or Algorithm (the engine filters,
        scores and selects the node; upstream keeps queue, assume, bind)
  percentageOfNodesToScore: 0..100, 0 = adaptive (Algorithm mode only;
        unset: the profile's, else the top-level one)
  seed: seeds the engine's choice among equal top scores
  plugins: the engine's plugins, shaped as a profile's plugins (enabled
        with weights, disabled; per extension point or multiPoint),
        merged with the default profile's; absent means the defaults
The profile's pluginConfig entries for plugins it does not enable reach
the engine (the plugins LibSched stands in for), as does the profile's
(else the top-level) percentageOfNodesToScore in Algorithm mode; what the
engine cannot honour is refused at start-up with the field's path.`

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
