package opsconsole

import (
	"net/url"
)

// pathBytes are the bytes url.URL.EscapedPath leaves as they are in a path (shouldEscape(c, encodePath) is false).
var pathBytes = func() (set [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		set[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		set[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		set[c] = true
	}
	for _, c := range "-_.~$&+,/:;=@" {
		set[c] = true
	}
	return set
}()

// escapedPath is u.EscapedPath(), without its scans for a path with nothing to escape.
func escapedPath(u *url.URL) string {
	if u.RawPath == "" && u.Path != "*" {
		p := u.Path
		plain := true
		for i := 0; i < len(p); i++ {
			if !pathBytes[p[i]] {
				plain = false
				break
			}
		}
		if plain {
			return p
		}
	}
	return u.EscapedPath()
}

// versionOf is the path's first segment when it is a version (`/v2/…` → `v2`), as /^\/(v\d+)(?:\/|$)/.
func versionOf(path string) string {
	if len(path) < 3 || path[0] != '/' || path[1] != 'v' {
		return ""
	}
	end := 2
	for end < len(path) && isDigit(path[end]) {
		end++
	}
	if end == 2 || (end < len(path) && path[end] != '/') {
		return ""
	}
	return path[1:end]
}
