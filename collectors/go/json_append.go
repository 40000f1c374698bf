package opsconsole

import (
	"strconv"
	"unicode/utf8"
)

// appendMillis appends a duration in milliseconds as strconv.AppendFloat(b, v, 'f', -1, 64) does
// (JavaScript's shortest form): a whole number of microseconds, as the middleware measures them,
// is written as an integer with up to three decimals, much faster; any other value by AppendFloat.
func appendMillis(b []byte, v float64) []byte {
	if v >= 0 && v < 1e9 {
		if micros := int64(v*1000 + 0.5); float64(micros)/1000 == v {
			b = strconv.AppendInt(b, micros/1000, 10)
			if frac := micros % 1000; frac != 0 {
				digits := [4]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
				n := 4
				for digits[n-1] == '0' {
					n--
				}
				b = append(b, digits[:n]...)
			}
			return b
		}
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string; bytes that are not UTF-8 become U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
