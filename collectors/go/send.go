package opsconsole

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand"
	"net/http"
	"net/url"
	"time"
)

// maxAnswerBytes is the most of an ingest answer read.
const maxAnswerBytes = 1024 * 1024

func (c *Collector) run() {
	defer close(c.done)
	defer c.cancelRun()
	ticker := time.NewTicker(c.interval)
	defer ticker.Stop()
	for {
		select {
		case <-c.wake:
			readWallOffset()
			c.drain(false)
		case <-ticker.C:
			readWallOffset()
			c.drain(true)
		case done := <-c.flushes:
			c.retryAt = time.Time{}
			c.drain(true)
			close(done)
		case ctx := <-c.closing:
			ticker.Stop()
			c.closeWith(ctx)
			return
		}
	}
}

type outcome int

const (
	outcomeSent outcome = iota
	outcomeRetry
	outcomeDrop
)

// drain sends the ready batches in turn until one must wait; everything includes the open batch.
func (c *Collector) drain(everything bool) {
	if time.Now().Before(c.retryAt) {
		return
	}
	c.mu.Lock()
	// While backing off the open batch stays open (above): no batch per tick of an outage.
	if everything && c.open != nil {
		c.seal()
	}
	c.mu.Unlock()
	for c.runCtx.Err() == nil {
		c.mu.Lock()
		if len(c.ready) == 0 {
			c.mu.Unlock()
			return
		}
		b := c.ready[0]
		c.mu.Unlock()
		if b.body == nil && !c.write(b) {
			continue
		}
		result, rejected := c.send(b)
		c.mu.Lock()
		if len(c.ready) == 0 || c.ready[0] != b {
			c.mu.Unlock()
			return
		}
		if result == outcomeRetry {
			// Stays at the front; wait longer each time (with jitter), or as long as the server asked.
			c.stats.FailedAttempts++
			c.mu.Unlock()
			if c.backoff == 0 {
				c.backoff = 500 * time.Millisecond
			} else if c.backoff *= 2; c.backoff > MaxBackoff {
				c.backoff = MaxBackoff
			}
			wait := time.Duration(float64(c.backoff) * (0.5 + mrand.Float64()/2))
			if c.serverAsked > wait {
				wait = c.serverAsked
			}
			c.serverAsked = 0
			c.retryAt = time.Now().Add(wait)
			return
		}
		c.ready = c.ready[1:]
		c.queued -= b.count
		c.queuedBytes -= b.bytes
		if result == outcomeSent {
			c.stats.Sent += int64(b.count - rejected)
			c.stats.Rejected += int64(rejected)
			c.backoff = 0
		} else {
			c.stats.FailedAttempts++
			c.stats.DroppedFailed += int64(b.count)
		}
		c.mu.Unlock()
	}
}

// send posts one batch; answers whether to keep it for a retry, and how many events the server refused.
func (c *Collector) send(b *batch) (outcome, int) {
	ctx, cancel := context.WithTimeout(c.runCtx, c.sendTimeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, c.ingestURL, bytes.NewReader(b.body))
	if err != nil {
		c.tell(Problem{Kind: ProblemRefused, Events: b.count, Message: err.Error()})
		return outcomeDrop, 0
	}
	request.Header.Set("Authorization", "Bearer "+c.ingestKey)
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Idempotency-Key", b.key)
	request.Header.Set("User-Agent", "ops-console-collector-go")
	response, err := c.client.Do(request)
	var answer []byte
	if err == nil {
		answer, err = io.ReadAll(io.LimitReader(response.Body, maxAnswerBytes))
		response.Body.Close()
	}
	if err != nil {
		// The network is away: keep the events while the queue has room.
		origin := c.ingestURL
		if u, e := url.Parse(c.ingestURL); e == nil {
			origin = u.Scheme + "://" + u.Host
		}
		c.tell(Problem{Kind: ProblemUnreachable, Message: fmt.Sprintf("Could not send events to %s: %v; retrying.", origin, err)})
		return outcomeRetry, 0
	}
	status := response.StatusCode
	switch {
	case status == http.StatusAccepted:
		count, first := rejectedOf(answer)
		if count > 0 {
			c.tell(Problem{Kind: ProblemRejectedEvents, Status: status, Events: count, Message: fmt.Sprintf("The console server refused %d event(s): %s", count, first)})
		}
		return outcomeSent, count
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		c.serverAsked = RetryAfter(response.Header.Get("Retry-After"), time.Now())
		return outcomeRetry, 0
	}
	c.tell(problemOf(status, c.ingestURL, b.count))
	// A server error may pass (the Idempotency-Key makes a retry safe), but a batch that keeps failing must not hold up the rest.
	if status >= 500 {
		b.failures++
		if b.failures < MaxFailures {
			return outcomeRetry, 0
		}
	}
	return outcomeDrop, 0
}

// rejectedOf is how many events a 202 lists as rejected, and the first reason.
func rejectedOf(body []byte) (int, string) {
	var answer struct {
		Rejected []struct {
			Reason string `json:"reason"`
		} `json:"rejected"`
		RejectedCount *float64 `json:"rejectedCount"`
	}
	if json.Unmarshal(body, &answer) != nil || answer.Rejected == nil {
		return 0, ""
	}
	count := len(answer.Rejected)
	if answer.RejectedCount != nil {
		count = int(*answer.RejectedCount)
	}
	first := ""
	if len(answer.Rejected) > 0 {
		first = answer.Rejected[0].Reason
	}
	return count, first
}
