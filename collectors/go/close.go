package opsconsole

import (
	"context"
	"fmt"
	"time"
)

// Flush sends everything queued now (a batch backing off is tried now too) and returns when done
// or given up on, or when ctx ends.
func (c *Collector) Flush(ctx context.Context) error {
	done := make(chan struct{})
	select {
	case c.flushes <- done:
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops recording, sends what waits (retrying while the server is away) and returns by
// ctx's deadline at the latest (CloseTimeout when ctx has none); what is still queued then is
// counted as DroppedAtClose. Calling it again waits for the first.
func (c *Collector) Close(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.closeTimeout)
		defer cancel()
	}
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if !already {
		c.closing <- ctx
	}
	select {
	case <-c.done:
	case <-ctx.Done():
		c.cancelRun() // ends the send under way
		<-c.done
	}
	return nil
}

func (c *Collector) closeWith(ctx context.Context) {
	// At shutdown what waits is sent now, not after the backoff of a server that was away.
	c.retryAt = time.Time{}
	for c.queuedNow() > 0 && ctx.Err() == nil {
		if wait := time.Until(c.retryAt); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
			}
			if ctx.Err() != nil {
				break
			}
		}
		c.drain(true)
	}
	c.mu.Lock()
	left := c.queued
	if left > 0 {
		c.stats.DroppedAtClose += int64(left)
		c.ready = nil
		c.open = nil
		c.queued = 0
		c.queuedBytes = 0
	}
	c.mu.Unlock()
	if left > 0 {
		c.tell(Problem{Kind: ProblemDroppedAtClose, Events: left, Message: fmt.Sprintf("Closed with %d event(s) not yet sent: the console server did not take them in time.", left)})
	}
}
