package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	configv1 "k8s.io/kubernetes/pkg/scheduler/apis/config/v1"
	"k8s.io/utils/ptr"

	"github.com/libsched/libsched/go/sched"
)

// profileSource is where a LibSched instance's engine config comes from:
// the loaded KubeSchedulerConfiguration (defaulted as upstream defaults it)
// and the index of the profile that enabled the instance.
type profileSource struct {
	cfg   *config.KubeSchedulerConfiguration
	index int
	// argsIndex is LibSched's entry in the profile's pluginConfig, -1 if none.
	argsIndex int
}

// findProfile locates the profile named schedulerName in cfg.
func findProfile(cfg *config.KubeSchedulerConfiguration, schedulerName string) (profileSource, error) {
	if cfg == nil {
		return profileSource{}, errors.New("LibSched: no KubeSchedulerConfiguration was loaded (run with --config)")
	}
	for i := range cfg.Profiles {
		if cfg.Profiles[i].SchedulerName != schedulerName {
			continue
		}
		src := profileSource{cfg: cfg, index: i, argsIndex: -1}
		for j, pc := range cfg.Profiles[i].PluginConfig {
			if pc.Name == Name {
				src.argsIndex = j
			}
		}
		return src, nil
	}
	return profileSource{}, fmt.Errorf("LibSched: profile %q is not in the loaded configuration", schedulerName)
}

func (s profileSource) profile() *config.KubeSchedulerProfile { return &s.cfg.Profiles[s.index] }

// path is the loaded configuration's path of a profile field.
func (s profileSource) path(field string) string {
	return fmt.Sprintf("profiles[%d].%s", s.index, field)
}

// argsPath is the path of LibSched's args (or of where they would be).
func (s profileSource) argsPath() string {
	if s.argsIndex < 0 {
		return s.path("pluginConfig[LibSched].args")
	}
	return s.path(fmt.Sprintf("pluginConfig[%d].args", s.argsIndex))
}

// engineProfileJSON is the engine config's one profile (docs/api.md).
type engineProfileJSON struct {
	SchedulerName            string             `json:"schedulerName"`
	PercentageOfNodesToScore *int32             `json:"percentageOfNodesToScore,omitempty"`
	Plugins                  json.RawMessage    `json:"plugins,omitempty"`
	PluginConfig             []pluginConfigJSON `json:"pluginConfig,omitempty"`
}

type pluginConfigJSON struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// engineConfig is the engine's configuration document (docs/api.md,
// "Config") for one LibSched instance: one profile, named engineProfile,
// with LibSched's plugins, the profile's pluginConfig entries for plugins
// upstream does not run in this profile (those the engine runs in their
// place), and in ModeAlgorithm the percentageOfNodesToScore of LibSched's
// args, else the profile's, else the top-level one. pathOf maps a path of
// the document back to the loaded configuration's.
func engineConfig(args Args, src profileSource) (doc []byte, pathOf func(string) string, err error) {
	prof := engineProfileJSON{SchedulerName: engineProfile, Plugins: args.Plugins}
	if args.Mode == ModePlugin {
		// Upstream asks Filter about any node: the engine must have an
		// answer for each.
		prof.PercentageOfNodesToScore = ptr.To[int32](100)
	} else if err = checkAroundEngine(src); err != nil {
		return nil, nil, err
	} else if prof.PercentageOfNodesToScore, err = algorithmPercentage(args, src); err != nil {
		return nil, nil, err
	}
	enabled := sets.New(src.profile().Plugins.Names()...)
	if p := src.profile().Plugins; p != nil {
		for _, e := range p.MultiPoint.Enabled {
			enabled.Insert(e.Name)
		}
	}
	var origIndex []int
	for j, pc := range src.profile().PluginConfig {
		if pc.Name == Name || enabled.Has(pc.Name) {
			continue // LibSched's own, or upstream's plugin's
		}
		raw, isDefault, err := versionedArgs(pc)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", src.path(fmt.Sprintf("pluginConfig[%d].args", j)), err)
		}
		if isDefault {
			continue // the engine defaults them as upstream does
		}
		prof.PluginConfig = append(prof.PluginConfig, pluginConfigJSON{Name: pc.Name, Args: raw})
		origIndex = append(origIndex, j)
	}
	doc, err = json.Marshal(map[string]any{"seed": args.Seed, "profiles": []engineProfileJSON{prof}})
	if err != nil {
		return nil, nil, err
	}
	pathOf = func(p string) string {
		if rest, ok := cutPath(p, "seed"); ok {
			return src.argsPath() + ".seed" + rest
		}
		if rest, ok := cutPath(p, "profiles[0].plugins"); ok {
			return src.argsPath() + ".plugins" + rest
		}
		for k, j := range origIndex {
			if rest, ok := cutPath(p, fmt.Sprintf("profiles[0].pluginConfig[%d]", k)); ok {
				return src.path(fmt.Sprintf("pluginConfig[%d]", j)) + rest
			}
		}
		return p
	}
	return doc, pathOf, nil
}

// aroundEngine are the plugins a ModeAlgorithm profile may enable in
// multiPoint beside LibSched: upstream's, acting only where the engine
// leaves the cycle to upstream (QueueSort, PreEnqueue, Bind).
var aroundEngine = sets.New("PrioritySort", "SchedulingGates", "DefaultBinder")

// checkAroundEngine refuses a ModeAlgorithm profile in which upstream's
// framework would run another plugin where LibSched picks the node
// (PreFilter, Filter, PostFilter, PreScore, Score): it would judge only the
// engine's one node, or preempt a second time, and its weights or args
// would not reach the engine (which takes its plugins from LibSched's args).
func checkAroundEngine(src profileSource) error {
	p := src.profile().Plugins
	if p == nil {
		return nil
	}
	points := []struct {
		field string
		set   config.PluginSet
	}{{"multiPoint", p.MultiPoint}, {"preFilter", p.PreFilter}, {"filter", p.Filter}, {"postFilter", p.PostFilter},
		{"preScore", p.PreScore}, {"score", p.Score}}
	for _, ps := range points {
		for _, e := range ps.set.Enabled {
			if e.Name == Name || (ps.field == "multiPoint" && aroundEngine.Has(e.Name)) {
				continue
			}
			return fmt.Errorf("%s: Invalid value: %q: upstream would run it beside LibSched, which picks the node alone in "+
				"Algorithm mode; disable it here (name the engine's plugins in LibSched's args.plugins)",
				src.path("plugins."+ps.field+".enabled"), e.Name)
		}
	}
	return nil
}

// algorithmPercentage is the engine's percentageOfNodesToScore in
// ModeAlgorithm: LibSched's own arg (which must then agree with the
// profile's, if set), else the profile's, else the top-level one; nil is
// the engine's default (0, adaptive), as upstream's.
func algorithmPercentage(args Args, src profileSource) (*int32, error) {
	own, profile := args.PercentageOfNodesToScore, src.profile().PercentageOfNodesToScore
	switch {
	case own != nil && profile != nil && *own != *profile:
		return nil, fmt.Errorf("%s.percentageOfNodesToScore: Invalid value: %d: differs from %s %d",
			src.argsPath(), *own, src.path("percentageOfNodesToScore"), *profile)
	case own != nil:
		return own, nil
	case profile != nil:
		return profile, nil
	}
	return src.cfg.PercentageOfNodesToScore, nil
}

// versionedArgs is a pluginConfig entry's args as kubescheduler.config.k8s.io/v1
// JSON, and whether they equal the defaults of their kind. Args of kinds
// upstream's scheme does not know (out-of-tree plugins) are passed as given.
func versionedArgs(pc config.PluginConfig) (json.RawMessage, bool, error) {
	if pc.Args == nil {
		return nil, true, nil
	}
	if u, ok := pc.Args.(*runtime.Unknown); ok {
		return u.Raw, u.Raw == nil, nil
	}
	versioned, err := scheme.Scheme.ConvertToVersion(pc.Args, configv1.SchemeGroupVersion)
	if err != nil {
		return nil, false, err
	}
	defaults, err := scheme.Scheme.New(versioned.GetObjectKind().GroupVersionKind())
	if err != nil {
		return nil, false, err
	}
	scheme.Scheme.Default(defaults)
	defaults.GetObjectKind().SetGroupVersionKind(versioned.GetObjectKind().GroupVersionKind())
	raw, err := json.Marshal(versioned)
	if err != nil {
		return nil, false, err
	}
	// Semantic: a nil and an empty list are the same args.
	return raw, equality.Semantic.DeepEqual(versioned, defaults), nil
}

// cutPath returns what follows prefix in path if path is prefix or one of
// its fields or elements.
func cutPath(path, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok || (rest != "" && rest[0] != '.' && rest[0] != '[') {
		return "", false
	}
	return rest, true
}

// newEngine creates the engine for a LibSched instance of profile src, or
// says at the loaded configuration's path what it cannot honour.
func newEngine(args Args, src profileSource) (*sched.Engine, error) {
	doc, pathOf, err := engineConfig(args, src)
	if err != nil {
		return nil, fmt.Errorf("LibSched: %w", err)
	}
	engine, err := sched.New(doc)
	if err != nil {
		return nil, configError(err, pathOf)
	}
	return engine, nil
}

// configError restates the engine's refusal of its config at the loaded
// configuration's path of the field.
func configError(err error, pathOf func(string) string) error {
	var se *sched.Error
	if !errors.As(err, &se) || se.Path == "" {
		return fmt.Errorf("LibSched: creating the engine: %w", err)
	}
	detail, _ := strings.CutPrefix(se.Message, se.Path+": ")
	return fmt.Errorf("LibSched: %s: %s", pathOf(se.Path), detail)
}
