package opsconsole

import (
	"strings"
)

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
