package opsconsole

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type maskingCases struct {
	Masked  string              `json:"masked"`
	Headers []string            `json:"headers"`
	Fields  map[string][]string `json:"fields"`
	Cases   []struct {
		Kind        string `json:"kind"`
		Name        string `json:"name"`
		Value       string `json:"value"`
		Path        string `json:"path"`
		Text        string `json:"text"`
		ContentType string `json:"contentType"`
		Expected    string `json:"expected"`
	} `json:"cases"`
}

// The cases every collector agrees on, written by the reference masker (collectors/shared/masking-cases.ts).
func TestSharedMaskingCases(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "shared", "masking-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases maskingCases
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if cases.Masked != Masked || !reflect.DeepEqual(cases.Headers, MaskedHeaders) ||
		!reflect.DeepEqual(cases.Fields["holding"], MaskedFieldsHolding) || !reflect.DeepEqual(cases.Fields["endingIn"], MaskedFieldsEndingIn) {
		t.Fatalf("the defaults differ from the reference: %+v", cases)
	}
	if len(cases.Cases) == 0 {
		t.Fatal("no cases")
	}
	m, _ := NewMasker(MaskOptions{})
	for i, c := range cases.Cases {
		var got string
		switch c.Kind {
		case "header":
			got = m.Header(strings.ToLower(c.Name), c.Value)
		case "path":
			got = m.Path(c.Path)
		case "text":
			got = m.Text(c.Text)
		case "body":
			got = m.Body(c.ContentType, c.Text)
		default:
			t.Fatalf("case %d: unknown kind %q", i, c.Kind)
		}
		if got != c.Expected {
			t.Errorf("case %d (%s):\n got  %q\n want %q", i, c.Kind, got, c.Expected)
		}
	}
}

func TestMaskerOptionsAndEdges(t *testing.T) {
	m, err := NewMasker(MaskOptions{Headers: []string{"X-Session"}, Fields: []string{"pin"}, Patterns: []string{`sk_live_\w+`}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	check(m.Header("x-session", "abc"), Masked)
	check(m.Header("x-auth-token", "abc"), Masked)
	check(m.Header("x-note", "key SK_LIVE_abc here"), "key [masked] here")
	check(m.Body("application/json", `{"PIN": 1234, "max_tokens": 5, "a": "4242-4242-4242-4242"}`), `{"PIN": "[masked]", "max_tokens": 5, "a": "[masked]"}`)
	// 20 digits in groups: the card shape backtracks to the 16 before the last group.
	check(m.Text("4242 4242 4242 4242 4242"), "[masked] 4242")
	check(m.Text("12345678901234567890123"), "12345678901234567890123")
	check(m.Body("application/json", `{"password": `), `{"password": `)
	check(m.Body("application/json", `{"secret": {"a": [1, {"b": "}"}]}, "x": 1}`), `{"secret": "[masked]", "x": 1}`)
	check(m.Body("application/json", `{"to\u006ben": "v"}`), `{"to\u006ben": "[masked]"}`)
	if _, err := NewMasker(MaskOptions{Patterns: []string{"("}}); err == nil {
		t.Error("a pattern that does not compile is refused")
	}
}
