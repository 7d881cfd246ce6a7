package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"syscall"
	"time"
)

// outcome is what one run of a plan measured.
type outcome struct {
	scheduled   int               // measured pods placed
	unscheduled int               // measured pods never placed
	attempts    int               // scheduling cycles of measured pods
	preemptions int               // cycles that evicted victims
	churnPods   int               // churn pods created during the measured op
	elapsed     time.Duration     // wall time of the measured op
	cpu         time.Duration     // process CPU time (user + system) of the measured op
	attemptMs   []float64         // per cycle of a measured pod
	placements  map[string]string // "ns/name" -> node, pods bound at the end
}

// report is one JSON line, the shape of bench/workload/report.h.
type report struct {
	Impl          string         `json:"impl"`
	Workload      string         `json:"workload"`
	Nodes         int            `json:"nodes"`
	Entry         string         `json:"entry"`
	Scale         float64        `json:"scale"`
	InitPods      int            `json:"initPods"`
	MeasurePods   int            `json:"measurePods"`
	Scheduled     int            `json:"scheduled"`
	Unscheduled   int            `json:"unscheduled"`
	Attempts      int            `json:"attempts"`
	Preemptions   int            `json:"preemptions"`
	ChurnPods     int            `json:"churnPods"`
	Seconds       float64        `json:"seconds"`
	PodsPerSecond float64        `json:"podsPerSecond"`
	CPUSeconds    float64        `json:"cpuSeconds"`
	PodsPerCPUSec float64        `json:"podsPerCpuSecond"`
	P50Ms         float64        `json:"p50Ms"`
	P99Ms         float64        `json:"p99Ms"`
	PeakRssMiB    float64        `json:"peakRssMiB"`
	PodsPerNode   map[string]int `json:"podsPerNode"`
	PodsPerZone   map[string]int `json:"podsPerZone"`
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// percentile is the nearest-rank percentile p of v (sorted in place).
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	rank := int(math.Ceil(p / 100 * float64(len(v))))
	rank = min(max(rank, 1), len(v))
	return v[rank-1]
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRssMiB is the process's peak resident set (getrusage).
func peakRssMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // KiB on Linux
}

func makeReport(impl string, p *plan, o *outcome) report {
	r := report{
		Impl: impl, Workload: p.workload, Nodes: len(p.nodes), Entry: p.entry, Scale: p.scale,
		MeasurePods: len(p.measured.pods), Scheduled: o.scheduled, Unscheduled: o.unscheduled,
		Attempts: o.attempts, Preemptions: o.preemptions, ChurnPods: o.churnPods,
		Seconds: round3(o.elapsed.Seconds()), PeakRssMiB: round3(peakRssMiB()),
		PodsPerNode: map[string]int{}, PodsPerZone: map[string]int{},
	}
	for _, b := range p.init {
		r.InitPods += len(b.pods)
	}
	if s := o.elapsed.Seconds(); s > 0 {
		r.PodsPerSecond = round3(float64(o.scheduled) / s)
	}
	r.CPUSeconds = round3(o.cpu.Seconds())
	if s := o.cpu.Seconds(); s > 0 {
		r.PodsPerCPUSec = round3(float64(o.scheduled) / s)
	}
	ms := append([]float64(nil), o.attemptMs...)
	r.P50Ms = round3(percentile(ms, 50))
	r.P99Ms = round3(percentile(ms, 99))
	perNode := map[string]int{}
	for _, node := range o.placements {
		perNode[node]++
		if z, ok := p.nodeZone[node]; ok {
			r.PodsPerZone[z]++
		}
	}
	if empty := len(p.nodes) - len(perNode); empty > 0 {
		r.PodsPerNode["0"] = empty
	}
	for _, n := range perNode {
		r.PodsPerNode[strconv.Itoa(n)]++
	}
	return r
}

func printTable(w io.Writer, reports []report) {
	fmt.Fprintf(w, "%-14s %-31s %6s %10s %9s %9s %9s %8s %11s\n", "impl", "workload", "nodes",
		"pods/s", "p50 ms", "p99 ms", "RSS MiB", "placed", "preemptions")
	for _, r := range reports {
		fmt.Fprintf(w, "%-14s %-31s %6d %10.1f %9.3f %9.3f %9.1f %8s %11d\n", r.Impl, r.Workload,
			r.Nodes, r.PodsPerSecond, r.P50Ms, r.P99Ms, r.PeakRssMiB,
			fmt.Sprintf("%d/%d", r.Scheduled, r.MeasurePods), r.Preemptions)
	}
}
