package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// A plan is one scheduler_perf workload at one cluster size, generated from
// upstream's workload and template files (bench/corpus) exactly as the C
// driver does (bench/workload/plan.h says how; keep the two in step).
type plan struct {
	workload string
	entry    string  // upstream workload entry, e.g. "500Nodes"
	scale    float64 // factor applied to the entry's counts
	nodes    []*v1.Node
	ns       []*v1.Namespace
	init     [][]*v1.Pod // createPods ops before the measured one
	measured []*v1.Pod
	churn    *churn
	nodeZone map[string]string // node -> value of the labelNodePrepareStrategy label
	// featureGates of the upstream workload entry, which scheduler_perf
	// sets for the run (the upstream harness does too).
	featureGates map[string]bool
}

// churn is a scheduler_perf churn op in "create" mode.
type churn struct {
	namespace string
	template  *v1.Pod
	interval  time.Duration
}

// workloadSources maps a workload to its corpus file and test case.
var workloadSources = map[string][2]string{
	"SchedulingBasic":                {"misc", "SchedulingBasic"},
	"SchedulingNodeAffinity":         {"affinity", "SchedulingNodeAffinity"},
	"SchedulingPodAntiAffinity":      {"affinity", "SchedulingPodAntiAffinity"},
	"SchedulingPodAffinity":          {"affinity", "SchedulingPodAffinity"},
	"SchedulingPreferredPodAffinity": {"affinity", "SchedulingPreferredPodAffinity"},
	"TopologySpreading":              {"topology_spreading", "TopologySpreading"},
	"Preemption":                     {"default_preemption", "PreemptionBasic"},
	"Unschedulable":                  {"default_preemption", "Unschedulable"},
}

// knownWorkloads is the report order.
var knownWorkloads = []string{
	"SchedulingBasic", "SchedulingNodeAffinity", "SchedulingPodAntiAffinity",
	"SchedulingPodAffinity", "SchedulingPreferredPodAffinity", "TopologySpreading",
	"Preemption", "Unschedulable",
}

type testCase struct {
	Name                   string `json:"name"`
	DefaultPodTemplatePath string `json:"defaultPodTemplatePath"`
	WorkloadTemplate       []struct {
		Opcode                   string   `json:"opcode"`
		CountParam               string   `json:"countParam"`
		Count                    *int     `json:"count"`
		Prefix                   string   `json:"prefix"`
		Namespace                string   `json:"namespace"`
		NodeTemplatePath         string   `json:"nodeTemplatePath"`
		PodTemplatePath          string   `json:"podTemplatePath"`
		CollectMetrics           bool     `json:"collectMetrics"`
		Mode                     string   `json:"mode"`
		TemplatePaths            []string `json:"templatePaths"`
		IntervalMilliseconds     int      `json:"intervalMilliseconds"`
		LabelNodePrepareStrategy *struct {
			LabelKey    string   `json:"labelKey"`
			LabelValues []string `json:"labelValues"`
		} `json:"labelNodePrepareStrategy"`
	} `json:"workloadTemplate"`
	Workloads []struct {
		Name         string             `json:"name"`
		Params       map[string]float64 `json:"params"`
		FeatureGates map[string]bool    `json:"featureGates"`
	} `json:"workloads"`
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// templatePath maps "../templates/x.yaml" to <corpus>/templates/x.json.
func templatePath(corpus, path string) string {
	for strings.HasPrefix(path, "../") {
		path = path[3:]
	}
	path = strings.TrimPrefix(path, "templates/")
	path = strings.ReplaceAll(path, "/", "__")
	if !strings.HasSuffix(path, ".json") {
		path = strings.TrimSuffix(path, ".yaml") + ".json"
	}
	return filepath.Join(corpus, "templates", path)
}

func indexed(prefix string, i int) string { return fmt.Sprintf("%s%05d", prefix, i) }

// makePod names a copy of tmpl and fills in what the API server defaults.
func makePod(tmpl *v1.Pod, ns string, i int) *v1.Pod {
	p := tmpl.DeepCopy()
	p.Name = indexed(tmpl.GenerateName, i)
	p.GenerateName = ""
	p.Namespace = ns
	p.UID = types.UID(ns + "." + p.Name)
	if p.Spec.SchedulerName == "" {
		p.Spec.SchedulerName = v1.DefaultSchedulerName
	}
	return p
}

func loadPlan(corpus, workload string, nodes int) (*plan, error) {
	src, ok := workloadSources[workload]
	if !ok {
		return nil, fmt.Errorf("unknown workload %q", workload)
	}
	var cases []testCase
	if err := readJSON(filepath.Join(corpus, "workloads", src[0]+".performance-config.json"), &cases); err != nil {
		return nil, err
	}
	var tc *testCase
	for i := range cases {
		if cases[i].Name == src[1] {
			tc = &cases[i]
		}
	}
	if tc == nil {
		return nil, fmt.Errorf("no test case %s", src[1])
	}
	p := &plan{workload: workload, nodeZone: map[string]string{}}
	// The first entry without a feature-gate variant at this size, or the
	// largest one scaled.
	var params map[string]float64
	best := 0.0
	for _, w := range tc.Workloads {
		if strings.Contains(w.Name, "_") {
			continue
		}
		n := w.Params["initNodes"]
		if int(n) == nodes {
			p.entry, params, p.featureGates, p.scale = w.Name, w.Params, w.FeatureGates, 1
			break
		}
		if n > best {
			p.entry, params, p.featureGates, best = w.Name, w.Params, w.FeatureGates, n
		}
	}
	if p.scale == 0 {
		if best == 0 {
			return nil, fmt.Errorf("%s: no workload entry with initNodes", workload)
		}
		p.scale = float64(nodes) / best
	}
	count := func(countParam string, literal *int, scale float64) (int, error) {
		if literal != nil {
			return *literal, nil
		}
		v, ok := params[strings.TrimPrefix(countParam, "$")]
		if !ok {
			return 0, fmt.Errorf("missing param %s", countParam)
		}
		return int(math.Round(v * scale)), nil
	}
	for opIndex, op := range tc.WorkloadTemplate {
		switch op.Opcode {
		case "createNodes":
			path := op.NodeTemplatePath
			if path == "" {
				path = "node-default.json"
			}
			var tmpl v1.Node
			if err := readJSON(templatePath(corpus, path), &tmpl); err != nil {
				return nil, err
			}
			for i := 0; i < nodes; i++ {
				n := tmpl.DeepCopy()
				n.Name = indexed(tmpl.GenerateName, len(p.nodes))
				n.GenerateName = ""
				if n.Labels == nil {
					n.Labels = map[string]string{}
				}
				n.Labels[v1.LabelHostname] = n.Name
				if s := op.LabelNodePrepareStrategy; s != nil && len(s.LabelValues) > 0 {
					v := s.LabelValues[i%len(s.LabelValues)]
					n.Labels[s.LabelKey] = v
					p.nodeZone[n.Name] = v
				}
				if n.Status.Allocatable == nil {
					n.Status.Allocatable = n.Status.Capacity.DeepCopy()
				}
				p.nodes = append(p.nodes, n)
			}
		case "createNamespaces":
			c, err := count(op.CountParam, op.Count, 1)
			if err != nil {
				return nil, err
			}
			for i := 0; i < c; i++ {
				p.ns = append(p.ns, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", op.Prefix, i)}})
			}
		case "createPods":
			path := op.PodTemplatePath
			if path == "" {
				path = tc.DefaultPodTemplatePath
			}
			if path == "" {
				path = "pod-default.json"
			}
			var tmpl v1.Pod
			if err := readJSON(templatePath(corpus, path), &tmpl); err != nil {
				return nil, err
			}
			ns := op.Namespace
			if ns == "" {
				ns = fmt.Sprintf("namespace-%d", opIndex)
			}
			c, err := count(op.CountParam, op.Count, p.scale)
			if err != nil {
				return nil, err
			}
			batch := make([]*v1.Pod, c)
			for i := range batch {
				batch[i] = makePod(&tmpl, ns, i)
			}
			if op.CollectMetrics {
				p.measured = batch
			} else {
				p.init = append(p.init, batch)
			}
		case "churn":
			if op.Mode != "create" || len(op.TemplatePaths) == 0 {
				return nil, fmt.Errorf("unsupported churn op")
			}
			var tmpl v1.Pod
			if err := readJSON(templatePath(corpus, op.TemplatePaths[0]), &tmpl); err != nil {
				return nil, err
			}
			p.churn = &churn{namespace: fmt.Sprintf("namespace-%d", opIndex), template: &tmpl,
				interval: time.Duration(op.IntervalMilliseconds) * time.Millisecond}
		default:
			return nil, fmt.Errorf("unsupported opcode %q", op.Opcode)
		}
	}
	if len(p.measured) == 0 {
		return nil, fmt.Errorf("%s: no createPods op with collectMetrics", workload)
	}
	return p, nil
}
