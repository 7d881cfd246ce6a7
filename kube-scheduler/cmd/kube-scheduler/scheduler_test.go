package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/profile"

	"github.com/libsched/libsched/go/sched"
	"github.com/libsched/libsched/kube-scheduler/internal/fakewatch"
	"github.com/libsched/libsched/kube-scheduler/plugin"
)

// The profile name both example configurations use.
const schedulerName = "libsched"

var examples = []struct {
	file string
	// wantFilters are the profile's Filter plugins once defaults are merged.
	wantFilters []string
}{
	{file: "config.yaml", wantFilters: []string{"NodeVolumeLimits", "VolumeBinding", "PodTopologySpread", plugin.Name}},
	{file: "config-algorithm.yaml", wantFilters: []string{plugin.Name}},
}

func examplePath(file string) string { return filepath.Join("..", "..", "examples", file) }

// TestExampleConfigsLoad runs each example configuration through the
// command's own setup (app.Setup: flags, file decoding, validation, plugin
// construction), as `kube-scheduler --config` does.
func TestExampleConfigsLoad(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.file, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := options.NewOptions()
			opts.ConfigFile = examplePath(ex.file)
			opts.Master = "http://127.0.0.1:1" // never contacted: the scheduler is built, not run
			opts.SecureServing.BindPort = 0    // no listener
			_, s, err := app.Setup(ctx, opts, withLibSched(func() string { return opts.ConfigFile }))
			if err != nil {
				t.Fatalf("app.Setup(--config %s): %v", ex.file, err)
			}
			defer s.Profiles.Close()
			fw, ok := s.Profiles[schedulerName]
			if !ok {
				t.Fatalf("no profile %q", schedulerName)
			}
			var filters []string
			for _, p := range fw.ListPlugins().Filter.Enabled {
				filters = append(filters, p.Name)
			}
			for _, want := range ex.wantFilters {
				if !strings.Contains(","+strings.Join(filters, ",")+",", ","+want+",") {
					t.Errorf("Filter plugins %v lack %s", filters, want)
				}
			}
			if ex.file == "config-algorithm.yaml" && len(filters) != 1 {
				t.Errorf("Filter plugins %v, want LibSched alone", filters)
			}
		})
	}
}

// TestSchedulesPods runs the upstream scheduler, built from each example's
// profiles with LibSched registered, against a fake API server: pods must be
// bound where a reference engine fed the same cluster puts them, and an
// unschedulable pod must get the engine's FitError message.
func TestSchedulesPods(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.file, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, s := startScheduler(ctx, t, examplePath(ex.file))
			defer s.Profiles.Close()
			ref, err := sched.New([]byte(`{"percentageOfNodesToScore":100}`))
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close()

			nodes := []*v1.Node{
				makeNode("small", "2", nil),
				makeNode("big", "8", nil),
				makeNode("tainted", "16", []v1.Taint{{Key: "dedicated", Value: "gpu", Effect: v1.TaintEffectNoSchedule}}),
			}
			for _, n := range nodes {
				if _, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				applyNode(t, ref, n)
			}

			// One pod alone first: LibSched retries a pod whose cycle
			// met an engine still missing a Node event (backoff), which
			// would reorder the pods created together below.
			warmup := makePod("warmup", "100m")
			if _, err := client.CoreV1().Pods(warmup.Namespace).Create(ctx, warmup, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if got, want := waitForNode(ctx, t, client, warmup), scheduleOn(t, ref, warmup).Node; got != want {
				t.Errorf("pod warmup bound to %q, the engine chose %q", got, want)
			}

			// Created together: each cycle must see the previous ones'
			// placements (Reserve assumes them in the engine) even before
			// the informer reports the bindings.
			pods := []*v1.Pod{makePod("a", "1"), makePod("b", "6"), makePod("c", "2")}
			for _, p := range pods {
				if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range pods {
				want := scheduleOn(t, ref, p)
				if want.Node == "" {
					t.Fatalf("reference engine did not place %s: %s", p.Name, want.Message)
				}
				if got := waitForNode(ctx, t, client, p); got != want.Node {
					t.Errorf("pod %s bound to %q, the engine chose %q", p.Name, got, want.Node)
				}
			}

			// 4 CPUs: 1 left on small and on big; tainted is tainted.
			p := makePod("d", "4")
			want := scheduleOn(t, ref, p)
			if want.Node != "" {
				t.Fatalf("reference engine placed %s on %s", p.Name, want.Node)
			}
			if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			// The FitError part is the engine's; the examples disable
			// preemption, whose part differs, and PostFilter plugins that
			// stay enabled (DynamicResources in plugin mode) append theirs.
			wantMsg, _, _ := strings.Cut(want.Message, " preemption:")
			if got := waitForUnschedulable(ctx, t, client, p); !strings.HasPrefix(got, wantMsg) {
				t.Errorf("unschedulable message\n got %q\nwant %q first", got, wantMsg)
			}
		})
	}
}

// startScheduler builds and runs the scheduler with the profiles and
// percentageOfNodesToScore of the configuration file, LibSched registered,
// on a fake clientset holding objs whose pod binding sets spec.nodeName as
// the API server does.
func startScheduler(ctx context.Context, t *testing.T, configFile string, objs ...runtime.Object) (*fake.Clientset, *scheduler.Scheduler) {
	t.Helper()
	cfg, err := options.LoadConfigFromFile(klog.FromContext(ctx), configFile)
	if err != nil {
		t.Fatal(err)
	}
	client := fake.NewClientset(objs...)
	fakewatch.Copying(client)
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create := action.(clienttesting.CreateAction)
		if create.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := create.GetObject().(*v1.Binding)
		gvr := v1.SchemeGroupVersion.WithResource("pods")
		obj, err := client.Tracker().Get(gvr, binding.Namespace, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		pod.Spec.NodeName = binding.Target.Name
		return true, nil, client.Tracker().Update(gvr, pod, pod.Namespace)
	})
	factory := scheduler.NewInformerFactory(client, 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	s, err := scheduler.New(ctx, client, factory, nil, profile.NewRecorderFactory(broadcaster),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithFrameworkOutOfTreeRegistry(frameworkruntime.Registry{plugin.Name: plugin.NewFactory(cfg)}),
	)
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	go s.Run(ctx)
	return client, s
}

func makeNode(name, cpu string, taints []v1.Taint) *v1.Node {
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelHostname: name}},
		Spec:       v1.NodeSpec{Taints: taints},
		Status: v1.NodeStatus{Allocatable: v1.ResourceList{
			v1.ResourceCPU:    resource.MustParse(cpu),
			v1.ResourceMemory: resource.MustParse("32Gi"),
			v1.ResourcePods:   resource.MustParse("110"),
		}},
	}
}

func makePod(name, cpu string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: v1.PodSpec{
			SchedulerName: schedulerName,
			Containers: []v1.Container{{Name: "c", Image: "busybox", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)},
			}}},
		},
	}
}

// applyNode adds a node to the reference engine.
func applyNode(t *testing.T, e *sched.Engine, node *v1.Node) {
	t.Helper()
	n := node.DeepCopy()
	n.APIVersion, n.Kind = "v1", "Node"
	doc, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Apply(doc); err != nil {
		t.Fatal(err)
	}
}

// scheduleOn runs the reference engine's cycle for pod and assumes it.
func scheduleOn(t *testing.T, e *sched.Engine, pod *v1.Pod) *sched.Result {
	t.Helper()
	p := pod.DeepCopy()
	p.APIVersion, p.Kind = "v1", "Pod"
	p.Spec.SchedulerName = v1.DefaultSchedulerName
	doc, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Schedule(context.Background(), doc, sched.Assume)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func waitForNode(ctx context.Context, t *testing.T, client *fake.Clientset, pod *v1.Pod) string {
	t.Helper()
	var node string
	err := wait.PollUntilContextCancel(ctx, 20*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		p, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node = p.Spec.NodeName
		return node != "", nil
	})
	if err != nil {
		t.Fatalf("pod %s not bound: %v", pod.Name, err)
	}
	return node
}

// waitForUnschedulable returns the message of the pod's PodScheduled=False
// condition once the scheduler has written it.
func waitForUnschedulable(ctx context.Context, t *testing.T, client *fake.Clientset, pod *v1.Pod) string {
	t.Helper()
	var msg string
	err := wait.PollUntilContextCancel(ctx, 20*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		p, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range p.Status.Conditions {
			if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
				msg = c.Message
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("pod %s not reported unschedulable: %v", pod.Name, err)
	}
	return msg
}
