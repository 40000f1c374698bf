package opsconsole

import (
	"sync/atomic"
	"time"
)

// epoch is where the middleware's monotonic clock starts (the package's start).
var epoch = time.Now()

// monoNow is the time since epoch on the monotonic clock: one clock read (time.Now reads two).
func monoNow() time.Duration { return time.Since(epoch) }

// wallOffset is the wall clock (Unix ns) at epoch as it was last read: the wall clock minus the
// monotonic one, refreshed by every sending goroutine at each flush interval and batch.
var wallOffset int64 = epoch.UnixNano()

// readWallOffset refreshes wallOffset from the clocks now (so a step of the wall clock counts
// from the next refresh on).
func readWallOffset() {
	now := time.Now()
	atomic.StoreInt64(&wallOffset, now.UnixNano()-int64(now.Sub(epoch)))
}

// wallMillis is the wall clock (Unix ms) when the monotonic clock read at.
func wallMillis(at time.Duration) int64 {
	ns := atomic.LoadInt64(&wallOffset) + int64(at)
	return time.Unix(0, ns).UnixMilli()
}
