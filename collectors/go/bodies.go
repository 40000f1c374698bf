package opsconsole

import (
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Body cutting as the reference does it (captured-body / bodies.ts): a body's text is masked with
// a little past the cut, then cut to maxBodyBytes UTF-8 bytes, never ending in half a secret.

// maskOverlap is how many characters past the cut are masked with the rest, so a secret the cut
// splits is still seen whole.
const maskOverlap = 256

// cutMargin is the characters before a cut that may hold the start of a secret the cut split.
const cutMargin = 64

// DefaultMaxBodyBytes is the UTF-8 bytes of one captured body's text kept by default.
const DefaultMaxBodyBytes = 64 * 1024

// textBody is the content types whose bodies are kept as text.
var textBody = regexp.MustCompile(`(?i)^(?:text/|application/(?:[\w.+-]*\+)?(?:json|xml|x-www-form-urlencoded|graphql|x-ndjson|javascript|yaml|x-yaml)\b)`)

// utf16Len is a text's length in UTF-16 units, as the ingest limits count it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// utf16Prefix is the first n UTF-16 units of s; a surrogate pair the cut splits becomes U+FFFD (as toWellFormed).
func utf16Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			if units < n {
				return s[:i] + "\uFFFD"
			}
			return s[:i]
		}
		units += w
	}
	return s
}

// cutToBytes is the first maxBytes UTF-8 bytes of text, never splitting a character.
func cutToBytes(text string, maxBytes int) string {
	if len(text) <= maxBytes {
		return text
	}
	end := maxBytes
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end]
}

// agreeing is what two maskings agree on from the start.
func agreeing(whole, shorter string) string {
	max := len(whole)
	if len(shorter) < max {
		max = len(shorter)
	}
	same := 0
	for same < max && whole[same] == shorter[same] {
		same++
	}
	// Back to the start of a character the difference split.
	if same < len(whole) {
		for same > 0 && !utf8.RuneStart(whole[same]) {
			same--
		}
	}
	return whole[:same]
}

// keptBody is a body as it is kept: its text masked and cut, nil text for types that are not text.
func keptBody(contentType string, size int64, sent *string, sentTruncated bool, m *Masker, maxBytes int) *Body {
	contentType = strings.TrimSpace(contentType)
	if sent == nil || !(contentType == "" || textBody.MatchString(contentType)) {
		return &Body{ContentType: contentType, Size: size}
	}
	text := *sent
	if int64(len(text)) > size {
		size = int64(len(text))
	}
	window := text
	if utf16Len(text) > maxBytes+maskOverlap {
		window = utf16Prefix(text, maxBytes+maskOverlap)
	}
	masked := m.Body(contentType, window)
	cutEdge := window != text || sentTruncated
	usable := masked
	if cutEdge {
		keep := utf16Len(window) - cutMargin
		if keep < 0 {
			keep = 0
		}
		usable = agreeing(masked, m.Body(contentType, utf16Prefix(window, keep)))
	}
	kept := cutToBytes(usable, maxBytes)
	return &Body{ContentType: contentType, Size: size, Truncated: cutEdge || kept != masked, Text: &kept}
}

// isCaptured says whether a body of this content type is kept.
func isCaptured(contentType string, capture *Capture) bool {
	if contentType == "" {
		return false
	}
	if capture.ContentTypes == nil {
		return textBody.MatchString(contentType)
	}
	lower := strings.ToLower(contentType)
	for _, prefix := range capture.ContentTypes {
		if strings.HasPrefix(lower, strings.ToLower(prefix)) {
			return true
		}
	}
	return false
}

// bodyTap keeps at most max bytes of a body as it passes, and counts every byte.
type bodyTap struct {
	buf  []byte
	max  int
	size int64
}

func (t *bodyTap) add(p []byte) {
	t.size += int64(len(p))
	if room := t.max - len(t.buf); room > 0 {
		if len(p) > room {
			p = p[:room]
		}
		t.buf = append(t.buf, p...)
	}
}

func (t *bodyTap) truncated() bool { return t.size > int64(len(t.buf)) }

// text is what was kept, as UTF-8: a character the cut split is dropped, other bad bytes become U+FFFD.
func (t *bodyTap) text() string {
	b := t.buf
	if t.truncated() {
		// Drop a last character the cut split.
		for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// capturedBody is a tapped body as it is sent: nil for an empty one, only its size when compressed.
func capturedBody(tap *bodyTap, contentType, encoding string, m *Masker, capture *Capture, maxBytes int) *Body {
	if tap == nil || tap.size == 0 || !isCaptured(contentType, capture) {
		return nil
	}
	if encoding != "" && !strings.EqualFold(encoding, "identity") {
		return keptBody(contentType, tap.size, nil, false, m, maxBytes)
	}
	text := tap.text()
	return keptBody(contentType, tap.size, &text, tap.truncated(), m, maxBytes)
}

// pickedHeaders is the named headers (or all, names nil), lower-case, repeated values joined, masked.
func pickedHeaders(h http.Header, names map[string]bool, m *Masker, host string) map[string]string {
	var kept map[string]string
	for name, values := range h {
		lower := strings.ToLower(name)
		if names != nil && !names[lower] {
			continue
		}
		if kept == nil {
			kept = make(map[string]string, len(h))
		}
		kept[lower] = m.Header(lower, strings.Join(values, ", "))
	}
	if host != "" && (names == nil || names["host"]) {
		if kept == nil {
			kept = map[string]string{}
		}
		kept["host"] = m.Header("host", host)
	}
	return kept
}
