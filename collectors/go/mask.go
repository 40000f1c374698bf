package opsconsole

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
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
