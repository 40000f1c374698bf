package opsconsole

import (
	"fmt"
	"math"
)

// eventChunk is how many events a batch keeps in one array: a batch grows without copying its events.
const eventChunk = 256

// maxFreeChunks is how many event arrays are kept for reuse once their batch is written.
const maxFreeChunks = 64

type batch struct {
	chunks [][]Event
	// The events in order, made when the batch is first written (and split).
	events []*Event
	count  int
	bytes  int
	// Sent with every attempt of this batch, so the server keeps it once.
	key      string
	failures int
	// The batch as sent: written at its first attempt, the same bytes at every retry.
	body []byte
}

// write makes the front batch's body; a body over maxBatchBytes is split in two batches (the
// second with a key of its own). Answers whether the batch is ready to send.
func (c *Collector) write(b *batch) bool {
	if b.events == nil {
		b.events, c.spareEvents = c.spareEvents[:0], nil
		if cap(b.events) < b.count {
			b.events = make([]*Event, 0, b.count)
		}
		for _, chunk := range b.chunks {
			for i := range chunk {
				b.events = append(b.events, &chunk[i])
			}
		}
	}
	// A new body each time: the transport may still read a sent one after an early answer.
	body, err := c.scratch.write(nil, b.events)
	if err != nil {
		c.mu.Lock()
		c.ready = c.ready[1:]
		c.queued -= b.count
		c.queuedBytes -= b.bytes
		c.stats.DroppedFailed += int64(b.count)
		c.mu.Unlock()
		c.tell(Problem{Kind: ProblemRefused, Events: b.count, Message: fmt.Sprintf("A batch could not be written as JSON (%v): %d event(s) dropped.", err, b.count)})
		return false
	}
	if b.key == "" {
		b.key = newUUID()
	}
	if len(body) <= c.maxBatchBytes || b.count == 1 {
		b.body = body
		if b.chunks != nil {
			// The events are in the body now: their arrays go back, cleared, for new batches.
			c.spareEvents = b.events[:0]
			for i := range c.spareEvents[:cap(c.spareEvents)] {
				c.spareEvents[:cap(c.spareEvents)][i] = nil
			}
			for _, chunk := range b.chunks {
				chunk = chunk[:cap(chunk)]
				for i := range chunk {
					chunk[i] = Event{}
				}
			}
			c.mu.Lock()
			for _, chunk := range b.chunks {
				if len(c.freeChunks) < maxFreeChunks {
					c.freeChunks = append(c.freeChunks, chunk[:0])
				}
			}
			c.mu.Unlock()
		}
		b.events = nil
		b.chunks = nil
		return true
	}
	half := (b.count + 1) / 2
	firstBytes := int(math.Round(float64(b.bytes) * float64(half) / float64(b.count)))
	first := &batch{events: b.events[:half], count: half, bytes: firstBytes, key: b.key}
	second := &batch{events: b.events[half:], count: b.count - half, bytes: b.bytes - firstBytes}
	c.mu.Lock()
	c.ready = append([]*batch{first, second}, c.ready[1:]...)
	c.mu.Unlock()
	return false
}
