package difftest

import (
	"encoding/json"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

// pluginConfigEntry is one element of a profile's pluginConfig as both
// sides read it (kubescheduler.config.k8s.io/v1).
type pluginConfigEntry struct {
	Name string `json:"name"`
	Args any    `json:"args"`
}

// scoredResources are the names the scorers may be configured with: every
// kind the engine resolves, and one ("pods") that has no allocatable entry
// the scorers read.
var scoredResources = []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage, gpu, v1.ResourcePods}

// resourceSpecs picks 1..3 distinct resources, with weights 1..100 (or 1
// when unweighted, as BalancedAllocation requires; 0 sometimes, which the
// defaults turn into 1).
func (g *generator) resourceSpecs(weighted bool) []configv1.ResourceSpec {
	var out []configv1.ResourceSpec
	for _, i := range g.r.Perm(len(scoredResources))[:1+g.n(3)] {
		w := int64(1)
		if weighted {
			w = int64(g.n(101))
		} else if g.chance(0.3) {
			w = 0
		}
		out = append(out, configv1.ResourceSpec{Name: string(scoredResources[i]), Weight: w})
	}
	return out
}

// shape is a random RequestedToCapacityRatio shape: 1..4 points of
// increasing utilization, scores 0..10.
func (g *generator) shape() []configv1.UtilizationShapePoint {
	var out []configv1.UtilizationShapePoint
	for _, u := range sets.List(sets.New(func() []int32 {
		var us []int32
		for range 1 + g.n(4) {
			us = append(us, int32(g.n(101)))
		}
		return us
	}()...)) {
		out = append(out, configv1.UtilizationShapePoint{Utilization: u, Score: int32(g.n(11))})
	}
	return out
}

// pluginConfig returns a profile's pluginConfig for g.argsShare of the
// cases (nil for the others): the scoring strategies of NodeResourcesFit with
// their resources, weights and shapes, its ignored resources,
// BalancedAllocation's resources and NodeAffinity's addedAffinity. Both
// sides get the same JSON.
func (g *generator) pluginConfig() []byte {
	if !g.chance(g.argsShare) {
		return nil
	}
	var pc []pluginConfigEntry
	if g.chance(0.7) {
		fit := &configv1.NodeResourcesFitArgs{}
		strategy := &configv1.ScoringStrategy{}
		switch g.n(3) {
		case 0:
			strategy.Type = configv1.LeastAllocated
		case 1:
			strategy.Type = configv1.MostAllocated
		default:
			strategy.Type = configv1.RequestedToCapacityRatio
			strategy.RequestedToCapacityRatio = &configv1.RequestedToCapacityRatioParam{Shape: g.shape()}
		}
		if g.chance(0.7) {
			strategy.Resources = g.resourceSpecs(true)
		}
		fit.ScoringStrategy = strategy
		switch g.n(4) {
		case 0:
			fit.IgnoredResources = []string{string(gpu)}
		case 1:
			fit.IgnoredResourceGroups = []string{"example.com"}
		}
		pc = append(pc, pluginConfigEntry{Name: "NodeResourcesFit", Args: fit})
	}
	if g.chance(0.4) {
		pc = append(pc, pluginConfigEntry{Name: "NodeResourcesBalancedAllocation",
			Args: &configv1.NodeResourcesBalancedAllocationArgs{Resources: g.resourceSpecs(false)}})
	}
	if g.chance(0.4) {
		added := g.nodeAffinity()
		if g.chance(0.5) {
			// Fewer cases where no node is left to score.
			added.RequiredDuringSchedulingIgnoredDuringExecution = nil
		}
		pc = append(pc, pluginConfigEntry{Name: "NodeAffinity",
			Args: &configv1.NodeAffinityArgs{AddedAffinity: added}})
	}
	if len(pc) == 0 {
		return nil
	}
	out, err := json.Marshal(pc)
	if err != nil {
		panic(err) // plain structs always encode
	}
	return out
}

// profileArgs decodes pluginConfig (a JSON array, or nil) as kube-scheduler
// loads a config file: the v1 scheme's defaults (every plugin's args, the
// given ones defaulted) and validation. It returns the args of `enabled`.
func profileArgs(pluginConfig []byte, enabled sets.Set[string]) ([]config.PluginConfig, error) {
	if pluginConfig == nil {
		pluginConfig = []byte("[]")
	}
	doc := fmt.Sprintf(`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",`+
		`"profiles":[{"schedulerName":%q,"pluginConfig":%s}]}`, v1.DefaultSchedulerName, pluginConfig)
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(doc), nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding the config: %w", err)
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("decoded a %T", obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("validating the config: %w", err)
	}
	var args []config.PluginConfig
	for _, pc := range cfg.Profiles[0].PluginConfig {
		if enabled.Has(pc.Name) {
			args = append(args, pc)
		}
	}
	return args, nil
}
