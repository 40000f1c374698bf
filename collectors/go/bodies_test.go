package opsconsole

import (
	"encoding/json"
	"strings"
	"testing"
)

// What the collector sends of a body cut at maxBodyBytes, as the Node suite expects it.
func TestCapturedBodyIsMaskedThenCut(t *testing.T) {
	m, _ := NewMasker(MaskOptions{})
	sent := `{"password":"pw_capture_1","card":"4242424242424242","note":"` + strings.Repeat("x", 300) + `"}`
	tap := &bodyTap{max: 120 + maskOverlap}
	tap.add([]byte(sent[:100]))
	tap.add([]byte(sent[100:]))
	body := capturedBody(tap, "application/json", "", m, &Capture{Bodies: true}, 120)
	want := (`{"password":"[masked]","card":"[masked]","note":"` + strings.Repeat("x", 300) + `"}`)[:120]
	if body == nil || body.Text == nil || *body.Text != want || !body.Truncated || body.Size != int64(len(sent)) || body.ContentType != "application/json" {
		t.Fatalf("got %+v", body)
	}
	// A body longer than the tap keeps: the tap stops, the size counts every byte, a secret at the cut is never half kept.
	long := `{"a":"` + strings.Repeat("y", 100) + `","token":"` + strings.Repeat("s", 400) + `"}`
	tap = &bodyTap{max: 120 + maskOverlap}
	tap.add([]byte(long))
	body = capturedBody(tap, "application/json", "", m, &Capture{Bodies: true}, 120)
	if strings.Contains(*body.Text, "sss") || body.Size != int64(len(long)) || !body.Truncated {
		t.Fatalf("got %+v %q", body, *body.Text)
	}
	// Compressed: only its size. Not text: no text. Not captured: nothing.
	if b := capturedBody(tap, "application/json", "gzip", m, &Capture{}, 120); b.Text != nil || b.Size != int64(len(long)) {
		t.Errorf("compressed %+v", b)
	}
	if b := capturedBody(tap, "image/png", "", m, &Capture{ContentTypes: []string{"image/"}}, 120); b == nil || b.Text != nil {
		t.Errorf("image %+v", b)
	}
	if b := capturedBody(tap, "image/png", "", m, &Capture{}, 120); b != nil {
		t.Errorf("an image is not captured by default: %+v", b)
	}
	// A multi-byte character the tap's cut splits is dropped.
	tap = &bodyTap{max: 4}
	tap.add([]byte("abcé and more"))
	if got := tap.text(); got != "abc" {
		t.Errorf("cut text %q", got)
	}
}

// The column form as columns.ts writes it.
func TestColumnsShape(t *testing.T) {
	text := "hi"
	events := []*Event{
		{TS: 1000, Method: "GET", Route: "/a/{id}", Path: "/a/1", Status: 200, DurationMs: 1.5, Bytes: 10, APIVersion: "v2", KeyID: "k1"},
		{TS: 1005, Method: "POST", Route: "/b", Path: "/b\n\"x\"", Status: 201, DurationMs: 0.25, Bytes: -1, Actor: &Actor{ID: "u", Name: "U"},
			Headers: map[string]string{"user-agent": "go"}, RequestBody: &Body{ContentType: "text/plain", Size: 2, Text: &text}},
	}
	raw, err := writeColumns(events)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"columns":{"count":2,"strings":["GET","/a/{id}","v2","k1","POST","/b"],"tsBase":1000,"ts":[0,5],"method":[0,4],"route":[1,5],` +
		`"path":["/a/1","/b\n\"x\""],"status":[200,201],"durationMs":[1.5,0.25],"apiVersion":[2,null],"keyId":[3,null],"bytes":[10,null],` +
		`"actor":[null,{"id":"u","name":"U"}],"headers":[null,{"user-agent":"go"}],"requestBody":[null,{"contentType":"text/plain","size":2,"truncated":false,"text":"hi"}]}}`
	if string(raw) != want {
		t.Fatalf("got\n%s\nwant\n%s", raw, want)
	}
	var parsed interface{}
	if err := json.Unmarshal(raw, &parsed); err != nil {
		t.Fatal(err)
	}
	if got := string(appendString(nil, "a\x01\xff\u2028")); got != `"a\u0001\ufffd\u2028"` {
		t.Errorf("appendString %s", got)
	}
}

func TestFitToIngestLimits(t *testing.T) {
	e := Event{Method: "propfind", Route: "no slash here", Path: "p", DurationMs: -1, KeyID: strings.Repeat("k", 200),
		Headers: map[string]string{"Bad Name": "x", "ok": strings.Repeat("v", 2000), "empty": ""}, Actor: &Actor{ID: "u"}}
	e.fit()
	if e.Method != "OTHER" || e.Route != "/no_slash_here" || e.Path != "/p" || e.DurationMs != 0 || utf16Len(e.KeyID) != 128 ||
		!strings.HasSuffix(e.KeyID, "…") || len(e.Headers) != 1 || utf16Len(e.Headers["ok"]) != 1024 || e.Actor.Name != "u" {
		t.Errorf("fitted %+v", e)
	}
	if got := fitText("ab😀cd", 4); got != "ab\uFFFD…" {
		t.Errorf("a pair the cut splits: %q", got)
	}
}
