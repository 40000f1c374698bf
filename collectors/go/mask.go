package opsconsole

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// A port of the reference masker (server/src/capture/mask.ts): credential headers, fields whose
// names say they hold a secret (in JSON and form bodies and query strings), card numbers (by their
// Luhn check digit) and the options' patterns are masked before anything leaves the host.
// collectors/shared/masking-cases.json holds the cases every collector must agree on.

// Masked is what a masked value reads.
const Masked = "[masked]"

// MaskedHeaders are the headers that always carry a credential.
var MaskedHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"}

// Field names that hold a secret, compared without case, `_`, `-`, `.` or spaces: a name holding
// one of the first (`client_secret`, `newPassword`) or ending in one of the second (`X-Auth-Token`,
// `card_number`, `cvv`; not `max_tokens`).
var (
	MaskedFieldsHolding  = []string{"password", "passwd", "secret", "apikey", "authorization"}
	MaskedFieldsEndingIn = []string{"token", "card", "cardnumber", "cvc", "cvv", "ssn", "iban"}
)

// MaskOptions adds to the defaults (it cannot remove one), as the server's `capture.mask`.
type MaskOptions struct {
	// More header names whose values are masked.
	Headers []string
	// More field names (compared as the defaults are) whose values are masked.
	Fields []string
	// Regular expressions (Go RE2 syntax, matched without case): every match in any text is masked.
	Patterns []string
}

// Masker masks headers, paths, texts and bodies as the reference masker does. Safe for concurrent use.
type Masker struct {
	headerNames map[string]bool
	extraFields map[string]bool
	patterns    []*regexp.Regexp
	mu          sync.RWMutex
	known       map[string]bool
}

// shortName is the longest field name remembered in the cache of names seen.
const shortName = 12

// shortestCard is the fewest characters a card number takes.
const shortestCard = 13

// NewMasker makes a masker; a pattern that does not compile is an error.
func NewMasker(options MaskOptions) (*Masker, error) {
	m := &Masker{headerNames: map[string]bool{}, extraFields: map[string]bool{}, known: map[string]bool{}}
	for _, h := range MaskedHeaders {
		m.headerNames[h] = true
	}
	for _, h := range options.Headers {
		m.headerNames[strings.ToLower(h)] = true
	}
	for _, f := range options.Fields {
		m.extraFields[fieldKey(f)] = true
	}
	for _, p := range options.Patterns {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return nil, err
		}
		m.patterns = append(m.patterns, re)
	}
	return m, nil
}

// jsSpace is JavaScript's `\s`.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// fieldKey is a name lower-cased without white space, `_`, `.` or `-`.
func fieldKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range strings.ToLower(name) {
		if r == '_' || r == '.' || r == '-' || jsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// IsSecretField says whether a field of this name holds a secret.
func (m *Masker) IsSecretField(name string) bool {
	if len(name) <= shortName {
		m.mu.RLock()
		secret, ok := m.known[name]
		m.mu.RUnlock()
		if ok {
			return secret
		}
	}
	key := fieldKey(name)
	secret := m.extraFields[key]
	for _, word := range MaskedFieldsHolding {
		if secret {
			break
		}
		secret = strings.Contains(key, word)
	}
	for _, word := range MaskedFieldsEndingIn {
		if secret {
			break
		}
		secret = strings.HasSuffix(key, word)
	}
	if len(name) <= shortName {
		m.mu.Lock()
		if len(m.known) >= 10_000 {
			m.known = map[string]bool{}
		}
		m.known[name] = secret
		m.mu.Unlock()
	}
	return secret
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// cardAt finds the card shape `(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)` starting at i (a digit after a
// non-digit), as JavaScript's backtracking matches it; it answers the match's end, or -1.
func cardAt(s string, i int) int {
	var ends [19]int
	n := 0
	p := i
	ends[n] = p + 1
	n++
	p++
	for n < 19 {
		if p < len(s) && isDigit(s[p]) {
			ends[n] = p + 1
			p++
		} else if p+1 < len(s) && (s[p] == ' ' || s[p] == '-') && isDigit(s[p+1]) {
			ends[n] = p + 2
			p += 2
		} else {
			break
		}
		n++
	}
	for k := n - 1; k >= 12; k-- {
		end := ends[k]
		if end >= len(s) || !isDigit(s[end]) {
			return end
		}
	}
	return -1
}

// nextCard finds the first card shape at or after from: its start and end, or -1.
func nextCard(s string, from int) (int, int) {
	for i := from; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && isDigit(s[i-1])) {
			continue
		}
		if end := cardAt(s, i); end != -1 {
			return i, end
		}
	}
	return -1, -1
}

func luhn(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		c := digits[i]
		if c == ' ' || c == '-' {
			continue
		}
		d := int(c - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// anyCard says whether a text may hold a card number anywhere.
func anyCard(s string) bool {
	start, _ := nextCard(s, 0)
	return start != -1
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// Text masks card numbers and the options' patterns in text.
func (m *Masker) Text(value string) string {
	masked := value
	if len(value) >= shortestCard && hasDigit(value) {
		var b strings.Builder
		copied := 0
		for at := 0; ; {
			start, end := nextCard(value, at)
			if start == -1 {
				break
			}
			if luhn(value[start:end]) {
				if copied == 0 {
					b.Grow(len(value))
				}
				b.WriteString(value[copied:start])
				b.WriteString(Masked)
				copied = end
			}
			at = end
		}
		if copied > 0 {
			b.WriteString(value[copied:])
			masked = b.String()
		}
	}
	for _, pattern := range m.patterns {
		masked = pattern.ReplaceAllLiteralString(masked, Masked)
	}
	return masked
}

// Header is a header's value as it may be kept: Masked for a credential header, or a header whose
// name says it holds a secret (`x-auth-token`), else its text masked.
func (m *Masker) Header(name, value string) string {
	if m.headerNames[strings.ToLower(name)] || m.IsSecretField(name) {
		return Masked
	}
	return m.Text(value)
}

// query masks each secret field's value in `a=1&token=x`; the separators and every other byte as sent.
func (m *Masker) query(q string) string {
	pairs := strings.Split(q, "&")
	for i, pair := range pairs {
		equals := strings.IndexByte(pair, '=')
		if equals == -1 {
			continue
		}
		name := pair[:equals]
		if decoded, err := url.QueryUnescape(name); err == nil {
			name = decoded
		}
		if m.IsSecretField(name) {
			pairs[i] = pair[:equals] + "=" + Masked
		}
	}
	return strings.Join(pairs, "&")
}

// Path masks a path's query string's secret fields, and card numbers and patterns in it.
func (m *Masker) Path(path string) string {
	at := strings.IndexByte(path, '?')
	if at == -1 {
		return m.Text(path)
	}
	end := len(path)
	if hash := strings.IndexByte(path[at:], '#'); hash != -1 {
		end = at + hash
	}
	return m.Text(path[:at+1] + m.query(path[at+1:end]) + path[end:])
}

// stringEnd is where the JSON string opening at start ends (its closing quote), or -1 when cut first.
func stringEnd(body string, start int) int {
	for at := indexFrom(body, '"', start+1); at != -1; at = indexFrom(body, '"', at+1) {
		backslashes := 0
		for at-1-backslashes >= 0 && body[at-1-backslashes] == '\\' {
			backslashes++
		}
		if backslashes%2 == 0 {
			return at
		}
	}
	return -1
}

func indexFrom(s string, c byte, from int) int {
	if from >= len(s) {
		return -1
	}
	if i := strings.IndexByte(s[from:], c); i != -1 {
		return from + i
	}
	return -1
}

// keyName is a key's raw content, decoded only when it holds an escape.
func keyName(raw string) string {
	if !strings.Contains(raw, "\\") {
		return raw
	}
	var name string
	if err := json.Unmarshal([]byte(`"`+raw+`"`), &name); err != nil {
		return raw
	}
	return name
}

// containerEnd is where the object or array opening at start ends, or -1 when cut first.
func containerEnd(body string, start int) int {
	depth := 0
	for at := start; at < len(body); at++ {
		switch body[at] {
		case '"':
			at = stringEnd(body, at)
			if at == -1 {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return at
			}
		}
	}
	return -1
}

func skipSpace(body string, at int) int {
	for at < len(body) && (body[at] == ' ' || body[at] == '\n' || body[at] == '\r' || body[at] == '\t') {
		at++
	}
	return at
}

func literalEnd(body string, at int) int {
	for at < len(body) {
		switch body[at] {
		case ',', '}', ']', ' ', '\n', '\r', '\t':
			return at
		}
		at++
	}
	return at
}

// maskJSON masks each secret field's value at any depth, string by string; the text between is
// copied as it is. A body cut short is masked as far as it goes.
func (m *Masker) maskJSON(body string) string {
	var out strings.Builder
	copied := 0
	replace := func(from, to int, text string) {
		out.WriteString(body[copied:from])
		out.WriteString(text)
		copied = to
	}
	cardsAnywhere := anyCard(body)
	searched := func(length int) bool { return len(m.patterns) > 0 || (cardsAnywhere && length >= shortestCard) }
	for start := strings.IndexByte(body, '"'); start != -1; {
		end := stringEnd(body, start)
		if end == -1 {
			replace(start, len(body), m.Text(body[start:]))
			break
		}
		after := skipSpace(body, end+1)
		if after >= len(body) || body[after] != ':' {
			if searched(end - start - 1) {
				value := body[start : end+1]
				if masked := m.Text(value); masked != value {
					replace(start, end+1, masked)
				}
			}
			start = indexFrom(body, '"', end+1)
			continue
		}
		valueAt := skipSpace(body, after+1)
		key := body[start+1 : end]
		if valueAt >= len(body) || !m.IsSecretField(keyName(key)) {
			if searched(len(key)) {
				if masked := m.Text(key); masked != key {
					replace(start+1, end, masked)
				}
			}
			start = indexFrom(body, '"', after+1)
			continue
		}
		var valueEnd int
		switch body[valueAt] {
		case '"':
			valueEnd = stringEnd(body, valueAt)
		case '{', '[':
			valueEnd = containerEnd(body, valueAt)
		default:
			valueEnd = literalEnd(body, valueAt) - 1
		}
		if valueEnd == -1 {
			replace(valueAt, len(body), `"`+Masked+`"`)
			start = -1
		} else {
			replace(valueAt, valueEnd+1, `"`+Masked+`"`)
			start = indexFrom(body, '"', valueEnd+1)
		}
	}
	if copied == 0 {
		return body
	}
	out.WriteString(body[copied:])
	return out.String()
}

// Body masks a body's text by its content type: JSON field by field at any depth (and card
// numbers and patterns in its strings), a form as a query string, other text as text.
func (m *Masker) Body(contentType, text string) string {
	typ := contentType
	if i := strings.IndexByte(typ, ';'); i != -1 {
		typ = typ[:i]
	}
	typ = strings.ToLower(strings.TrimSpace(typ))
	if typ == "application/x-www-form-urlencoded" {
		return m.Text(m.query(text))
	}
	if startsAsJSON(text) {
		return m.maskJSON(text)
	}
	return m.Text(text)
}

// startsAsJSON is JavaScript's /^\s*[{[]/.
func startsAsJSON(text string) bool {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '{' || r == '[' {
			return true
		}
		if !jsSpace(r) {
			return false
		}
		i += size
	}
	return false
}
