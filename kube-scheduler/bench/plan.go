package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
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
	init     []batch // createPods and createDeployments ops before the measured one
	measured batch   // the op with collectMetrics (every round's pods for a rollover)
	churn    *churn
	rollover *rollover
	nodeZone map[string]string // node -> value of the labelNodePrepareStrategy label
	// featureGates of the upstream workload entry, which scheduler_perf
	// sets for the run (the upstream harness does too).
	featureGates map[string]bool
}

// batch is the pods of a createPods op, or of Deployments with their
// Services and ReplicaSets (objects, created before the pods).
type batch struct {
	objects []runtime.Object
	pods    []*v1.Pod
}

// rollover is the measured op of a project churn workload
// (bench/workload/plan.h, Rollover): each round one Deployment, then the
// oldest Deployment deleted and replaceNodes nodes drained and replaced.
type rollover struct {
	rounds       []batch
	replaceNodes int
	spareNodes   []*v1.Node
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
	"SchedulingOwnedPods":            {"libsched", "SchedulingOwnedPods"},
	"SchedulingOwnedChurn":           {"libsched", "SchedulingOwnedChurn"},
	"SchedulingWithMixedChurn":       {"misc", "SchedulingWithMixedChurn"},
}

// knownWorkloads is the report order.
var knownWorkloads = []string{
	"SchedulingBasic", "SchedulingNodeAffinity", "SchedulingPodAntiAffinity",
	"SchedulingPodAffinity", "SchedulingPreferredPodAffinity", "TopologySpreading",
	"Preemption", "Unschedulable", "SchedulingOwnedPods", "SchedulingOwnedChurn",
	"SchedulingWithMixedChurn",
}

type testCase struct {
	Name                   string `json:"name"`
	DefaultPodTemplatePath string `json:"defaultPodTemplatePath"`
	WorkloadTemplate       []struct {
		Opcode                   string   `json:"opcode"`
		CountParam               string   `json:"countParam"`
		ReplicasParam            string   `json:"replicasParam"`
		ReplaceNodesParam        string   `json:"replaceNodesParam"`
		Count                    *int     `json:"count"`
		Prefix                   string   `json:"prefix"`
		Namespace                string   `json:"namespace"`
		NodeTemplatePath         string   `json:"nodeTemplatePath"`
		PodTemplatePath          string   `json:"podTemplatePath"`
		CollectMetrics           bool     `json:"collectMetrics"`
		Mode                     string   `json:"mode"`
		Number                   int      `json:"number"`
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
		Labels       []string           `json:"labels"`
		Threshold    *float64           `json:"threshold"`
	} `json:"workloads"`
}

// performanceEntry, as --entry, stands for the entry upstream's
// performance job holds to a throughput threshold (bench/workload/plan.h).
const performanceEntry = "performance"

// performanceEntry: the first entry labelled "performance" with a
// threshold, else the first labelled "performance", else "" (the default).
func (tc *testCase) performanceEntry() string {
	labelled := ""
	for _, w := range tc.Workloads {
		if !slices.Contains(w.Labels, "performance") {
			continue
		}
		if w.Threshold != nil {
			return w.Name
		}
		if labelled == "" {
			labelled = w.Name
		}
	}
	return labelled
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

// makeDeployment is Deployment k of `replicas` pods of tmpl in ns: its
// Service, ReplicaSet and pods, as bench/workload/plan.cc makes them.
func makeDeployment(tmpl *v1.Pod, ns string, k, replicas int) batch {
	d, hash := indexed("deploy-", k), indexed("h", k)
	rs := d + "-" + hash
	labels := map[string]string{"app": d, "pod-template-hash": hash}
	svc := &v1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: d, Namespace: ns, UID: types.UID(ns + ".svc." + d)},
		Spec:       v1.ServiceSpec{Selector: map[string]string{"app": d}, Ports: []v1.ServicePort{{Port: 80}}},
	}
	set := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: rs, Namespace: ns, UID: types.UID(ns + "." + rs), Labels: labels},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(int32(replicas)),
			Selector: &metav1.LabelSelector{MatchLabels: labels}},
	}
	pod := tmpl.DeepCopy()
	pod.GenerateName = rs + "-"
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	maps.Copy(pod.Labels, labels)
	pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet",
		Name: rs, UID: set.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
	b := batch{objects: []runtime.Object{svc, set}, pods: make([]*v1.Pod, replicas)}
	for i := range b.pods {
		b.pods[i] = makePod(pod, ns, i)
	}
	return b
}

func loadPlan(corpus, workload string, nodes int, entry string) (*plan, error) {
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
	if entry == performanceEntry {
		entry = tc.performanceEntry()
	}
	// The entry named `entry` when given, else the first entry without a
	// feature-gate variant at this size, or the largest one scaled.
	var params map[string]float64
	best := 0.0
	for _, w := range tc.Workloads {
		if entry == "" && strings.Contains(w.Name, "_") || entry != "" && w.Name != entry {
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
		if best == 0 && entry != "" {
			return nil, fmt.Errorf("%s: no workload entry %s with initNodes", workload, entry)
		}
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
	var makeNode func() *v1.Node
	deployments := 0
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
			s := op.LabelNodePrepareStrategy
			made := 0
			makeNode = func() *v1.Node {
				n := tmpl.DeepCopy()
				n.Name = indexed(tmpl.GenerateName, made)
				n.GenerateName = ""
				if n.Labels == nil {
					n.Labels = map[string]string{}
				}
				n.Labels[v1.LabelHostname] = n.Name
				if s != nil && len(s.LabelValues) > 0 {
					v := s.LabelValues[made%len(s.LabelValues)]
					n.Labels[s.LabelKey] = v
					p.nodeZone[n.Name] = v
				}
				if n.Status.Allocatable == nil {
					n.Status.Allocatable = n.Status.Capacity.DeepCopy()
				}
				made++
				return n
			}
			for i := 0; i < nodes; i++ {
				p.nodes = append(p.nodes, makeNode())
			}
		case "createNamespaces":
			c, err := count(op.CountParam, op.Count, 1)
			if err != nil {
				return nil, err
			}
			for i := 0; i < c; i++ {
				p.ns = append(p.ns, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", op.Prefix, i)}})
			}
		case "createPods", "createDeployments":
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
			if op.Opcode == "createPods" {
				b := batch{pods: make([]*v1.Pod, c)}
				for i := range b.pods {
					b.pods[i] = makePod(&tmpl, ns, i)
				}
				if op.CollectMetrics {
					p.measured = b
				} else {
					p.init = append(p.init, b)
				}
				break
			}
			replicas, err := count(op.ReplicasParam, nil, 1)
			if err != nil {
				return nil, err
			}
			if op.CollectMetrics && op.ReplaceNodesParam != "" {
				if makeNode == nil {
					return nil, fmt.Errorf("createDeployments with replaceNodesParam before createNodes")
				}
				p.rollover = &rollover{}
				if p.rollover.replaceNodes, err = count(op.ReplaceNodesParam, nil, p.scale); err != nil {
					return nil, err
				}
				for i := 0; i < c*p.rollover.replaceNodes; i++ {
					p.rollover.spareNodes = append(p.rollover.spareNodes, makeNode())
				}
			}
			for i := 0; i < c; i++ {
				b := makeDeployment(&tmpl, ns, deployments, replicas)
				deployments++
				switch {
				case !op.CollectMetrics:
					p.init = append(p.init, b)
				case p.rollover != nil:
					p.rollover.rounds = append(p.rollover.rounds, b)
					fallthrough
				default:
					p.measured.objects = append(p.measured.objects, b.objects...)
					p.measured.pods = append(p.measured.pods, b.pods...)
				}
			}
		case "churn":
			c, err := loadChurn(corpus, op.Mode, op.Number, op.TemplatePaths, op.IntervalMilliseconds, opIndex)
			if err != nil {
				return nil, err
			}
			p.churn = c
		default:
			return nil, fmt.Errorf("unsupported opcode %q", op.Opcode)
		}
	}
	if len(p.measured.pods) == 0 {
		return nil, fmt.Errorf("%s: no createPods op with collectMetrics", workload)
	}
	return p, nil
}
