package sched_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestForkIsEqualAndIndependent(t *testing.T) {
	parent := twoNodeEngine(t)
	ctx := context.Background()
	child, err := parent.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()
	if _, err := child.Schedule(ctx, schedtest.Pod("in-child", "500m", ""), sched.Assume); err != nil {
		t.Fatal(err)
	}
	if n := podCount(t, parent); n != 0 {
		t.Fatalf("parent pods after the child assumed one = %d, want 0", n)
	}
	if n := podCount(t, child); n != 1 {
		t.Fatalf("child pods = %d, want 1", n)
	}
	parent.Close()
	if _, err := parent.Fork(); err != sched.ErrClosed {
		t.Fatalf("Fork of a closed engine = %v, want ErrClosed", err)
	}
	if n := podCount(t, child); n != 1 {
		t.Fatalf("child pods after the parent closed = %d, want 1", n)
	}
}

// Parent and forks scheduled from goroutines at once (go test -race) end
// as engines that ran the same pods alone.
func TestForksUsedConcurrently(t *testing.T) {
	parent := twoNodeEngine(t)
	ctx := context.Background()
	engines := []*sched.Engine{parent}
	for i := 0; i < 3; i++ {
		f, err := parent.Fork()
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		engines = append(engines, f)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(engines))
	for i, e := range engines {
		wg.Add(1)
		go func(i int, e *sched.Engine) {
			defer wg.Done()
			for j := 0; j < 3; j++ {
				pod := schedtest.Pod(fmt.Sprintf("g%d-%d", i, j), "100m", "")
				if _, err := e.Schedule(ctx, pod, sched.Assume); err != nil {
					errs[i] = err
					return
				}
			}
		}(i, e)
	}
	wg.Wait()
	for i, e := range engines {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if n := podCount(t, e); n != 3 {
			t.Fatalf("engine %d pods = %d, want 3 (its own only)", i, n)
		}
	}
}
