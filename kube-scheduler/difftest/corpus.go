package difftest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/core/install" // core/v1 defaulting funcs in legacyscheme
)

// apiDefault applies the API server's core/v1 defaulting (e.g. a node's
// allocatable from its capacity, a port's protocol): what the scheduler
// and the engine see in a real cluster.
func apiDefault(obj runtime.Object) { legacyscheme.Scheme.Default(obj) }

// object is the part of any corpus object the loader looks at first.
type object struct {
	Kind     string            `json:"kind"`
	Metadata metav1.ObjectMeta `json:"metadata"`
	Items    []json.RawMessage `json:"items"`
	Spec     struct {
		Template *v1.PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

// workloadKinds are the controllers whose pod template the loader turns
// into a pod, as their controllers would.
var workloadKinds = map[string]bool{"Deployment": true, "ReplicaSet": true, "StatefulSet": true,
	"Job": true, "DaemonSet": true}

// corpusCases reads every Node, Namespace, Pod and workload pod template of
// the shared corpus (dir, see its SOURCES.md; scheduler_perf templates
// with {{.Index}} = 0, as tests/sim/corpus_test.py instantiates them) and
// returns one case per pod: that pod scheduled against all corpus nodes,
// with the corpus pods bound to those nodes present.
func corpusCases(dir string) ([]*Case, error) {
	var files []string
	for _, pattern := range []string{"nodes/*.json", "workloads/*.json", "scheduler_perf/templates/*.json",
		"snapshots/openshift-insights-archive/*.json"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files under %s", dir)
	}
	var (
		nodes      []*v1.Node
		namespaces []*v1.Namespace
		pods       []*v1.Pod // every pod, bound or not, in file order
		seen       = map[string]bool{}
	)
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		raw = []byte(strings.ReplaceAll(string(raw), "{{.Index}}", "0"))
		docs, err := flatten(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		base := strings.TrimSuffix(filepath.Base(file), ".json")
		for i, doc := range docs {
			var o object
			if err := json.Unmarshal(doc, &o); err != nil {
				return nil, fmt.Errorf("%s: item %d: %w", file, i, err)
			}
			switch {
			case o.Kind == "Node":
				n := &v1.Node{}
				if err := json.Unmarshal(doc, n); err != nil {
					return nil, fmt.Errorf("%s: item %d: %w", file, i, err)
				}
				n.Name = nameOf(n.ObjectMeta, base)
				if seen["node/"+n.Name] {
					continue // the same node in two files (minikube): keep the first
				}
				seen["node/"+n.Name] = true
				apiDefault(n)
				nodes = append(nodes, n)
			case o.Kind == "Namespace":
				ns := &v1.Namespace{}
				if err := json.Unmarshal(doc, ns); err != nil {
					return nil, fmt.Errorf("%s: item %d: %w", file, i, err)
				}
				ns.Name = nameOf(ns.ObjectMeta, base)
				if seen["ns/"+ns.Name] {
					continue
				}
				seen["ns/"+ns.Name] = true
				apiDefault(ns)
				namespaces = append(namespaces, ns)
			case o.Kind == "Pod":
				p := &v1.Pod{}
				if err := json.Unmarshal(doc, p); err != nil {
					return nil, fmt.Errorf("%s: item %d: %w", file, i, err)
				}
				p.Name = nameOf(p.ObjectMeta, base)
				pods = append(pods, p)
			case workloadKinds[o.Kind] && o.Spec.Template != nil:
				t := o.Spec.Template
				p := &v1.Pod{ObjectMeta: *t.ObjectMeta.DeepCopy(), Spec: *t.Spec.DeepCopy()}
				p.Name = nameOf(o.Metadata, base) + "-0"
				p.Namespace = o.Metadata.Namespace
				pods = append(pods, p)
			}
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })

	var bound []*v1.Pod
	for _, p := range pods {
		apiDefault(p)
		if p.Spec.NodeName != "" && seen["node/"+p.Spec.NodeName] {
			bound = append(bound, p)
		}
	}
	var cases []*Case
	for _, p := range pods {
		if p.Spec.SchedulerName != v1.DefaultSchedulerName {
			continue // another scheduler's pod; the profile is default-scheduler
		}
		in := p.DeepCopy()
		in.Name += "-incoming" // scheduled beside itself when it is bound
		in.UID = ""
		in.Spec.NodeName = ""
		in.Status = v1.PodStatus{}
		c := &Case{Name: "corpus " + in.Namespace + "/" + in.Name, Namespaces: namespaces,
			Nodes: nodes, Pods: bound, Pod: in}
		c.prepare()
		cases = append(cases, c)
	}
	return cases, nil
}

// flatten returns the objects of a file: the object itself, or the items of
// a List (nested Lists too).
func flatten(raw []byte) ([]json.RawMessage, error) {
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	if !strings.HasSuffix(o.Kind, "List") {
		return []json.RawMessage{raw}, nil
	}
	var out []json.RawMessage
	for _, item := range o.Items {
		items, err := flatten(item)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
	}
	return out, nil
}

// nameOf returns the object's name, or a name made from generateName (or
// the file name) as the API server would make one.
func nameOf(m metav1.ObjectMeta, file string) string {
	switch {
	case m.Name != "":
		return m.Name
	case m.GenerateName != "":
		return m.GenerateName + "x0000"
	default:
		return file
	}
}
