package opsconsole

// Stats are the collector's counts, as the Node collector's stats().
type Stats struct {
	// Events handed to the server and accepted.
	Sent int64
	// Events the ingest API answered but refused (listed as rejected in its 202).
	Rejected int64
	// Events recorded and neither sent nor dropped yet (waiting, or in the batch being sent).
	Queued int64
	// Events dropped because the queue was full.
	DroppedQueueFull int64
	// Events given up on after the server failed (not 429/503) or refused them.
	DroppedFailed int64
	// Events still waiting when Close reached its deadline.
	DroppedAtClose int64
	// Failed attempts to send a batch (each retried or dropped).
	FailedAttempts int64
}

// Stats answers the collector's counts.
func (c *Collector) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Queued = int64(c.queued)
	return s
}
