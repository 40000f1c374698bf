package opsconsole

import (
	"strconv"
)

// writeColumns writes events as the ingest API's column form, exactly as the Node collector's
// columns.ts does: `{"columns":{"count","strings","tsBase","ts","method","route","path","status",
// "durationMs"[,"apiVersion","keyId","customerId","bytes","actor","headers","responseHeaders",
// "requestBody","responseBody"]}}`. Texts that repeat (methods, routes, versions, keys, customers)
// are written once in `strings`; optional columns are left out when no event has the field.
func writeColumns(events []*Event) ([]byte, error) {
	var scratch columnScratch
	return scratch.write(nil, events)
}

// columnScratch is what writing a batch needs, kept by the sending goroutine from batch to batch.
type columnScratch struct {
	rows [5][]int
}

// write appends the batch's column form to buf (its room reused).
func (scratch *columnScratch) write(buf []byte, events []*Event) ([]byte, error) {
	strings := make([]string, 0, 16)
	index := make(map[string]int, 16)
	stringOf := func(s string) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(strings)
		strings = append(strings, s)
		return len(strings) - 1
	}
	n := len(events)
	rows := &scratch.rows
	some := [5]bool{}
	for f := range rows {
		if cap(rows[f]) < n {
			rows[f] = make([]int, n)
		}
		rows[f] = rows[f][:n]
	}
	tsBase := int64(0)
	// The text each field had on the event before, and its index: a route or a method repeats.
	var lastText [5]string
	var lastIndex [5]int
	for f := range lastIndex {
		lastIndex[f] = -1
	}
	var hasBytes, hasActor, hasHeaders, hasResponseHeaders, hasRequestBody, hasResponseBody bool
	for i := range events {
		e := events[i]
		if i == 0 || e.TS < tsBase {
			tsBase = e.TS
		}
		texts := [5]string{e.Method, e.Route, e.APIVersion, e.KeyID, e.CustomerID}
		for f, text := range texts {
			if text == "" && f >= 2 {
				rows[f][i] = -1
				continue
			}
			if lastIndex[f] < 0 || text != lastText[f] {
				lastText[f], lastIndex[f] = text, stringOf(text)
			}
			rows[f][i] = lastIndex[f]
			some[f] = true
		}
		hasBytes = hasBytes || e.Bytes >= 0
		hasActor = hasActor || e.Actor != nil
		hasHeaders = hasHeaders || e.Headers != nil
		hasResponseHeaders = hasResponseHeaders || e.ResponseHeaders != nil
		hasRequestBody = hasRequestBody || e.RequestBody != nil
		hasResponseBody = hasResponseBody || e.ResponseBody != nil
	}
	b := buf[:0]
	if want := 256 + n*96; cap(b) < want {
		b = make([]byte, 0, want)
	}
	b = append(b, `{"columns":{"count":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"strings":[`...)
	for i, s := range strings {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	b = append(b, `],"tsBase":`...)
	b = strconv.AppendInt(b, tsBase, 10)
	indices := func(name string, field int) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":[`...)
		for i, v := range rows[field] {
			if i > 0 {
				b = append(b, ',')
			}
			if v < 0 {
				b = append(b, "null"...)
			} else {
				b = strconv.AppendInt(b, int64(v), 10)
			}
		}
		b = append(b, ']')
	}
	integers := func(name string, value func(e *Event) int64) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":[`...)
		for i := range events {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, value(events[i]), 10)
		}
		b = append(b, ']')
	}
	integers("ts", func(e *Event) int64 { return e.TS - tsBase })
	indices("method", 0)
	indices("route", 1)
	b = append(b, `,"path":[`...)
	for i := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, events[i].Path)
	}
	b = append(b, ']')
	integers("status", func(e *Event) int64 { return int64(e.Status) })
	b = append(b, `,"durationMs":[`...)
	for i := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMillis(b, events[i].DurationMs)
	}
	b = append(b, ']')
	if some[2] {
		indices("apiVersion", 2)
	}
	if some[3] {
		indices("keyId", 3)
	}
	if some[4] {
		indices("customerId", 4)
	}
	if hasBytes {
		b = append(b, `,"bytes":[`...)
		for i := range events {
			if i > 0 {
				b = append(b, ',')
			}
			if v := events[i].Bytes; v >= 0 {
				b = strconv.AppendInt(b, v, 10) // as a float's shortest form: fit keeps it under 2^53
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, ']')
	}
	sparse := func(name string, write func(e *Event) bool) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":[`...)
		for i := range events {
			if i > 0 {
				b = append(b, ',')
			}
			if !write(events[i]) {
				b = append(b, "null"...)
			}
		}
		b = append(b, ']')
	}
	object := func(m map[string]string) bool {
		if m == nil {
			return false
		}
		b = append(b, '{')
		first := true
		for name, value := range m {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendString(b, name)
			b = append(b, ':')
			b = appendString(b, value)
		}
		b = append(b, '}')
		return true
	}
	body := func(x *Body) bool {
		if x == nil {
			return false
		}
		b = append(b, `{"contentType":`...)
		b = appendString(b, x.ContentType)
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, x.Size, 10)
		b = append(b, `,"truncated":`...)
		b = strconv.AppendBool(b, x.Truncated)
		b = append(b, `,"text":`...)
		if x.Text == nil {
			b = append(b, "null"...)
		} else {
			b = appendString(b, *x.Text)
		}
		b = append(b, '}')
		return true
	}
	if hasActor {
		sparse("actor", func(e *Event) bool {
			if e.Actor == nil {
				return false
			}
			b = append(b, `{"id":`...)
			b = appendString(b, e.Actor.ID)
			b = append(b, `,"name":`...)
			b = appendString(b, e.Actor.Name)
			b = append(b, '}')
			return true
		})
	}
	if hasHeaders {
		sparse("headers", func(e *Event) bool { return object(e.Headers) })
	}
	if hasResponseHeaders {
		sparse("responseHeaders", func(e *Event) bool { return object(e.ResponseHeaders) })
	}
	if hasRequestBody {
		sparse("requestBody", func(e *Event) bool { return body(e.RequestBody) })
	}
	if hasResponseBody {
		sparse("responseBody", func(e *Event) bool { return body(e.ResponseBody) })
	}
	b = append(b, "}}"...)
	return b, nil
}
