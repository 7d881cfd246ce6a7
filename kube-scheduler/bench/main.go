// Command bench runs scheduler_perf workloads (bench/corpus, generated as
// bench/workload/plan.h describes) through upstream kube-scheduler's own
// scheduling code in-process (--impl upstream) or through package go/sched
// (--impl libsched-go), and prints one JSON line per workload and size (the
// shape of bench/workload's) on stdout; --table adds a human table on
// stderr and --placements appends "workload nodes ns/pod node" lines. It
// is run by bench/compare.sh.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

func main() {
	impl := flag.String("impl", "upstream", "upstream or libsched-go")
	corpus := flag.String("corpus", "../../bench/corpus", "the scheduler_perf corpus (workloads/ and templates/)")
	workloads := flag.String("workload", strings.Join(knownWorkloads, ","), "comma-separated workloads")
	nodes := flag.String("nodes", "500", "comma-separated cluster sizes")
	placements := flag.String("placements", "", "append placements to this file")
	table := flag.Bool("table", false, "print a table on stderr")
	entry := flag.String("entry", "", "upstream's workload entry of this name (e.g. 5000Nodes_10000Pods) instead of the one picked by size; \"performance\": each workload's thresholded performance entry")
	flag.DurationVar(&stallTimeout, "stall", stallTimeout, "upstream: end a batch after this long without a binding or a scheduling attempt")
	klog.InitFlags(nil)
	flag.Parse()
	if err := run(*impl, *corpus, *workloads, *nodes, *entry, *placements, *table); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(impl, corpus, workloads, nodes, entry, placements string, table bool) error {
	var runner func(context.Context, *plan) (*outcome, error)
	switch impl {
	case "upstream":
		runner = runUpstream
		// The fake clientset's watchers panic when their buffer (100
		// events) fills; creating thousands of objects at once would.
		watch.DefaultChanSize = 1 << 16
	case "libsched-go":
		runner = runLibschedGo
	default:
		return fmt.Errorf("--impl must be upstream or libsched-go, got %q", impl)
	}
	var reports []report
	for _, size := range strings.Split(nodes, ",") {
		n, err := strconv.Atoi(size)
		if err != nil || n <= 0 {
			return fmt.Errorf("--nodes: bad size %q", size)
		}
		for _, w := range strings.Split(workloads, ",") {
			p, err := loadPlan(corpus, w, n, entry)
			if err != nil {
				return err
			}
			o, err := runner(context.Background(), p)
			if err != nil {
				return fmt.Errorf("%s at %d nodes: %w", w, n, err)
			}
			r := makeReport(impl, p, o)
			line, err := json.Marshal(r)
			if err != nil {
				return err
			}
			fmt.Println(string(line))
			reports = append(reports, r)
			if placements != "" {
				if err := appendPlacements(placements, w, n, o.placements); err != nil {
					return err
				}
			}
		}
	}
	if table {
		printTable(os.Stderr, reports)
	}
	return nil
}

func appendPlacements(path, workload string, nodes int, placements map[string]string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	pods := make([]string, 0, len(placements))
	for pod := range placements {
		pods = append(pods, pod)
	}
	sort.Strings(pods)
	for _, pod := range pods {
		fmt.Fprintf(f, "%s %d %s %s\n", workload, nodes, pod, placements[pod])
	}
	return f.Close()
}
