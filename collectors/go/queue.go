package opsconsole

// Record queues a measured request; it never blocks and never panics. The middleware calls it;
// call it yourself for requests measured some other way.
func (c *Collector) Record(e Event) {
	defer func() { _ = recover() }()
	c.record(&e)
}

func (c *Collector) record(e *Event) {
	e.fit()
	bytes := e.bytes()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	if c.queued >= c.maxQueue || c.queuedBytes+bytes > c.maxQueueBytes {
		c.stats.DroppedQueueFull++
		first := !c.full
		c.full = true
		c.mu.Unlock()
		// Said when the queue fills, not for every request dropped while it stays full.
		if first {
			c.tell(Problem{Kind: ProblemQueueFull, Events: 1, Message: "The queue is full (the console server is slow or away): new requests are not recorded."})
		}
		return
	}
	c.full = false
	sealed := false
	if c.open != nil && c.open.bytes+bytes > c.maxBatchBytes {
		c.seal()
		sealed = true
	}
	if c.open == nil {
		c.open = &batch{}
	}
	last := len(c.open.chunks) - 1
	if last < 0 || len(c.open.chunks[last]) == cap(c.open.chunks[last]) {
		if free := len(c.freeChunks) - 1; free >= 0 && cap(c.freeChunks[free]) == minInt(c.batchSize, eventChunk) {
			c.open.chunks = append(c.open.chunks, c.freeChunks[free])
			c.freeChunks[free] = nil
			c.freeChunks = c.freeChunks[:free]
		} else {
			c.open.chunks = append(c.open.chunks, make([]Event, 0, minInt(c.batchSize, eventChunk)))
		}
		last++
	}
	c.open.chunks[last] = append(c.open.chunks[last], *e)
	c.open.count++
	c.open.bytes += bytes
	c.queued++
	c.queuedBytes += bytes
	if c.open.count >= c.batchSize {
		c.seal()
		sealed = true
	}
	c.mu.Unlock()
	if sealed {
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
}

// seal moves the open batch to the ready ones; the caller holds mu.
func (c *Collector) seal() {
	c.ready = append(c.ready, c.open)
	c.open = nil
}

func (c *Collector) queuedNow() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queued
}
