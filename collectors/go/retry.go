package opsconsole

import (
	"crypto/rand"
	mrand "math/rand"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	// MaxBackoff is the longest wait between attempts, whatever a Retry-After asks.
	MaxBackoff = 30 * time.Second
	// MaxFailures is the server errors (5xx but 503) after which a batch is dropped.
	MaxFailures = 5
)

// RetryAfter is a Retry-After value (seconds or an HTTP date) as a wait from now, at most MaxBackoff.
func RetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	var wait time.Duration
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		wait = time.Duration(seconds) * time.Second
	} else if at, err := http.ParseTime(value); err == nil {
		wait = at.Sub(now)
	} else {
		return 0
	}
	if wait < 0 {
		return 0
	}
	if wait > MaxBackoff {
		return MaxBackoff
	}
	return wait
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// Never without a key: time and math/rand make one unique enough.
		mrand.Read(b[:])
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 36)
	j := 0
	for i, v := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hex[v>>4], hex[v&0xf]
		j += 2
	}
	return string(out)
}
