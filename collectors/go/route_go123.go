//go:build go1.23

package opsconsole

import (
	"net/http"
	"strings"
)

// defaultRoute is the ServeMux pattern that matched (`GET /contacts/{id}`), without its method
// and host: `/contacts/{id}`; "" when none matched.
func defaultRoute(r *http.Request) string {
	pattern := r.Pattern
	if pattern == "" {
		return ""
	}
	if space := strings.IndexAny(pattern, " \t"); space != -1 {
		pattern = strings.TrimLeft(pattern[space:], " \t")
	}
	if slash := strings.IndexByte(pattern, '/'); slash > 0 {
		pattern = pattern[slash:]
	}
	return pattern
}
