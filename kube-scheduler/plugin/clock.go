package plugin

import (
	"sync"
	"time"

	"github.com/libsched/libsched/go/sched"
)

// engineClock keeps an engine's clock (sched.Engine.AdvanceClock: whole
// milliseconds, forward only, 0 when the engine is created) at the
// scheduler's wall time read as Unix time, as upstream's scheduler reads
// time.Now(): DynamicResources' binding timeout (isClaimTimeout) compares a
// claim's allocationTimestamp with it, and the engine's queue times backoff
// and unschedulable pods by it. The first advance, a jump of decades, is
// made when the plugin is created, before the informers queue any pod
// (README.md, "The engine's clock").
type engineClock struct {
	// now is the wall time: time.Now, or a test's clock.
	now func() time.Time
	mu  sync.Mutex
	// millis is the engine's clock, in milliseconds since the Unix epoch
	// once advanced; only advance moves it.
	millis int64
}

func newEngineClock(now func() time.Time) *engineClock { return &engineClock{now: now} }

// advance moves e's clock to the wall time's whole millisecond when that
// is later than the engine's clock; a wall clock that stepped back leaves
// the engine's clock where it is.
func (c *engineClock) advance(e *sched.Engine) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now().UnixMilli()
	if now <= c.millis {
		return nil
	}
	if err := e.AdvanceClock(time.Duration(now-c.millis) * time.Millisecond); err != nil {
		return err
	}
	c.millis = now
	return nil
}
