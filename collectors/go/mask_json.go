package opsconsole

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

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
