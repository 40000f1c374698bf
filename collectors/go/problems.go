package opsconsole

import (
	"fmt"
	"log"
	"sync"
)

// Problem kinds, as the Node collector names them.
const (
	ProblemUnauthorized   = "unauthorized"
	ProblemNotFound       = "not-found"
	ProblemRefused        = "refused"
	ProblemRejectedEvents = "rejected-events"
	ProblemUnreachable    = "unreachable"
	ProblemServerError    = "server-error"
	ProblemQueueFull      = "queue-full"
	ProblemDroppedAtClose = "dropped-at-close"
)

// Problem is something that went wrong sending events.
type Problem struct {
	Kind    string
	Message string
	// The ingest API's status, when it answered (else 0).
	Status int
	// How many events the problem cost, when it cost some.
	Events int
}

func (p Problem) Error() string { return p.Message }

// problemTeller tells OnError of each problem, or logs each kind once; a hook that panics does not break the collector.
func problemTeller(onError func(Problem)) func(Problem) {
	if onError == nil {
		var mu sync.Mutex
		warned := map[string]bool{}
		onError = func(p Problem) {
			mu.Lock()
			defer mu.Unlock()
			if warned[p.Kind] {
				return
			}
			warned[p.Kind] = true
			log.Printf("[ops-console collector] %s (said once; pass OnError to hear each time)", p.Message)
		}
	}
	return func(p Problem) {
		defer func() { _ = recover() }()
		onError(p)
	}
}

func problemOf(status int, ingestURL string, events int) Problem {
	switch {
	case status == 401 || status == 403:
		return Problem{Kind: ProblemUnauthorized, Status: status, Events: events, Message: fmt.Sprintf("The console server refused the ingest key (%d): %d event(s) dropped. Check IngestKey.", status, events)}
	case status == 404:
		return Problem{Kind: ProblemNotFound, Status: status, Events: events, Message: fmt.Sprintf("Nothing answers at %s (404): %d event(s) dropped. The URL is the console server's base URL.", ingestURL, events)}
	case status >= 500:
		return Problem{Kind: ProblemServerError, Status: status, Events: events, Message: fmt.Sprintf("The console server failed (%d); a batch is tried %d times before it is dropped.", status, MaxFailures)}
	}
	return Problem{Kind: ProblemRefused, Status: status, Events: events, Message: fmt.Sprintf("The console server refused a batch (%d): %d event(s) dropped.", status, events)}
}
