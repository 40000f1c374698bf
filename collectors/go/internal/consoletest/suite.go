package consoletest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
)

// What each router's app serves (as server/test/collect-suite.ts):
//   - GET /v2/contacts/{id} → 200 JSON {"id"}
//   - POST /v2/messages → 201 `created`
//   - POST /v2/webhooks → 500
//   - GET /v2/usage/stream → 200, `chunk-` three times 20 ms apart, flushed (500 when the writer is no http.Flusher)
//   - GET /v2/slow → says it arrived (SlowArrivals), then 200 after 2s unless the client went away first
//   - POST /v2/orders → the JSON body read by the handler (201, or 422 without items)
//   - anything else → 404

// Mount serves the suite's API with the collector installed as the router's users install it.
type Mount func(c *opsconsole.Collector, options opsconsole.CollectOptions) http.Handler

// SlowArrivals hears each request reaching /v2/slow.
var SlowArrivals = make(chan struct{}, 16)

func lastSegment(r *http.Request) string {
	path := r.URL.Path
	return path[strings.LastIndexByte(path, '/')+1:]
}

func writeJSON(w http.ResponseWriter, status int, value interface{}) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(value)
}

// Contact answers GET /v2/contacts/{id}.
func Contact(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"id": lastSegment(r)})
}

// Messages answers POST /v2/messages.
func Messages(w http.ResponseWriter, r *http.Request) {
	_, _ = io.ReadAll(r.Body)
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, "created")
}

// Webhooks answers POST /v2/webhooks with a server error.
func Webhooks(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "the webhook failed", http.StatusInternalServerError)
}

// Stream answers GET /v2/usage/stream in three flushed chunks.
func Stream(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "the writer is no http.Flusher", http.StatusInternalServerError)
		return
	}
	for i := 0; i < 3; i++ {
		_, _ = io.WriteString(w, "chunk-")
		flusher.Flush()
		time.Sleep(20 * time.Millisecond)
	}
}

// Slow answers GET /v2/slow after 2s, unless the client goes away first.
func Slow(w http.ResponseWriter, r *http.Request) {
	SlowArrivals <- struct{}{}
	select {
	case <-r.Context().Done():
	case <-time.After(2 * time.Second):
		_, _ = io.WriteString(w, "slow")
	}
}

// Orders answers POST /v2/orders with what it read of the order (its card echoed).
func Orders(w http.ResponseWriter, r *http.Request) {
	var order struct {
		Items []interface{} `json:"items"`
		Card  *string       `json:"card"`
	}
	if err := json.NewDecoder(r.Body).Decode(&order); err != nil || order.Items == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]interface{}{"error": "items_missing", "card": order.Card})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]interface{}{"orderId": "ord_1", "count": len(order.Items), "card": order.Card})
}

var hiddenID = regexp.MustCompile(`/c_\w+`)

// Options are what the suite installs the collector with: version from the path, key and customer
// from headers, four headers kept, ids hidden by Redact and one request left out.
func Options() opsconsole.CollectOptions {
	return opsconsole.CollectOptions{
		APIVersion: opsconsole.Version{PathPrefix: true},
		Headers:    []string{"X-Request-Id", "user-agent", "Authorization", "x-note"},
		Identify: func(r *http.Request) *opsconsole.Identity {
			return &opsconsole.Identity{KeyID: r.Header.Get("X-Key"), CustomerID: r.Header.Get("X-Customer")}
		},
		Redact: func(e *opsconsole.Event) *opsconsole.Event {
			if strings.HasSuffix(e.Path, "/hidden") {
				return nil
			}
			e.Path = hiddenID.ReplaceAllString(e.Path, "/c_…")
			return e
		},
	}
}

// NewCollector is a collector sending to the account, flushing often.
func NewCollector(t *testing.T, s *Server, account Account, change func(*opsconsole.Options)) *opsconsole.Collector {
	t.Helper()
	options := opsconsole.Options{URL: s.URL, IngestKey: account.IngestKey, FlushInterval: 50 * time.Millisecond, OnError: func(p opsconsole.Problem) { t.Logf("collector: %s", p.Message) }}
	if change != nil {
		change(&options)
	}
	c, err := opsconsole.New(options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

type call struct {
	status  int
	body    string
	elapsed time.Duration
}

func do(t *testing.T, client *http.Client, method, url string, body io.Reader, headers map[string]string) call {
	t.Helper()
	request, _ := http.NewRequest(method, url, body)
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	started := time.Now()
	response, err := client.Do(request)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	answer, _ := io.ReadAll(response.Body)
	response.Body.Close()
	return call{status: response.StatusCode, body: string(answer), elapsed: time.Since(started)}
}

func flusher(c *opsconsole.Collector) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Flush(ctx)
	}
}

// Suite runs the checks every router's collector passes, against the real console server.
func Suite(t *testing.T, s *Server, mount Mount) {
	t.Run("routes, statuses, versions, callers, kept headers and redaction", func(t *testing.T) { routes(t, s, mount) })
	t.Run("capture keeps headers and bodies, masked before sending, sampled", func(t *testing.T) { capture(t, s, mount) })
	t.Run("a request the client abandons is recorded as 499", func(t *testing.T) { abandoned(t, s, mount) })
}

func routes(t *testing.T, s *Server, mount Mount) {
	account := s.Account()
	c := NewCollector(t, s, account, nil)
	app := httptest.NewServer(mount(c, Options()))
	defer app.Close()
	headers := map[string]string{
		"X-Key": "key_1", "X-Customer": "cus_1", "X-Request-Id": "req-77", "User-Agent": "suite-agent/1.0",
		"Authorization": "Bearer sk_live_routes_secret", "Cookie": "session=cookie_secret_1", "X-Note": "card 4242 4242 4242 4242",
	}
	type sent struct{ method, path string }
	plan := []sent{
		{"GET", "/v2/contacts/c_7?token=query_secret_1"},
		{"GET", "/v2/contacts/c_8"},
		{"POST", "/v2/messages"},
		{"POST", "/v2/webhooks"},
		{"GET", "/v2/usage/stream"},
		{"GET", "/v2/nowhere"},
		{"GET", "/v2/contacts/hidden"},
	}
	calls := make([]call, len(plan))
	for i, p := range plan {
		var body io.Reader
		if p.method == "POST" {
			body = strings.NewReader("hello")
		}
		calls[i] = do(t, app.Client(), p.method, app.URL+p.path, body, headers)
	}
	statuses := []int{}
	for _, c := range calls {
		statuses = append(statuses, c.status)
	}
	if fmt.Sprint(statuses) != fmt.Sprint([]int{200, 200, 201, 500, 200, 404, 200}) {
		t.Fatalf("the app answered %v", statuses)
	}
	if calls[4].body != "chunk-chunk-chunk-" {
		t.Fatalf("the stream answered %q (the writer lost http.Flusher?)", calls[4].body)
	}
	requests, err := s.Eventually(account, 6, flusher(c))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Method, Route, Path string
		Status              int
		Version, Key, Cust  string
		Bytes               int64
	}
	got := map[string]row{}
	for _, r := range requests {
		x := row{Method: r.Method, Route: r.Route, Path: r.Path, Status: r.Status}
		if r.APIVersion != nil {
			x.Version = *r.APIVersion
		}
		if r.KeyID != nil {
			x.Key = *r.KeyID
		}
		if r.Customer != nil {
			x.Cust = r.Customer.ID
		}
		if r.Bytes != nil {
			x.Bytes = *r.Bytes
		}
		got[r.Method+" "+r.Route+" "+fmt.Sprint(r.Status)+" "+fmt.Sprint(x.Bytes)] = x
	}
	want := []row{
		{"GET", "/contacts/{id}", "/v2/contacts/c_…", 200, "v2", "key_1", "cus_1", int64(len(calls[0].body))},
		{"POST", "/messages", "/v2/messages", 201, "v2", "key_1", "cus_1", 7},
		{"POST", "/webhooks", "/v2/webhooks", 500, "v2", "key_1", "cus_1", int64(len(calls[3].body))},
		{"GET", "/usage/stream", "/v2/usage/stream", 200, "v2", "key_1", "cus_1", 18},
		{"GET", "/nowhere", "/v2/nowhere", 404, "v2", "key_1", "cus_1", int64(len(calls[5].body))},
	}
	if len(requests) != 6 {
		t.Errorf("want 6 requests recorded (the redacted one left out), got %d", len(requests))
	}
	for _, w := range want {
		key := w.Method + " " + w.Route + " " + fmt.Sprint(w.Status) + " " + fmt.Sprint(w.Bytes)
		if got[key] != w {
			t.Errorf("want %+v, got %+v (all: %+v)", w, got[key], got)
		}
	}
	for _, r := range requests {
		kept := HeaderMap(r.Headers)
		wantHeaders := map[string]string{"x-request-id": "req-77", "user-agent": "suite-agent/1.0", "authorization": "[masked]", "x-note": "card [masked]"}
		if fmt.Sprint(kept) != fmt.Sprint(wantHeaders) {
			t.Errorf("%s: kept headers %v, want %v", r.Path, kept, wantHeaders)
		}
		if r.DurationMs <= 0 || r.DurationMs > 10_000 {
			t.Errorf("%s: duration %v ms", r.Path, r.DurationMs)
		}
		if r.Route == "/usage/stream" && r.DurationMs < 40 {
			t.Errorf("the stream is measured to the handler's return: %v ms", r.DurationMs)
		}
		for _, secret := range []string{"query_secret_1", "sk_live_routes_secret", "cookie_secret_1", "4242 4242", "token="} {
			if strings.Contains(r.Raw, secret) {
				t.Errorf("%q was sent: %s", secret, r.Raw)
			}
		}
	}
	// The exact count per route template, as the endpoints table shows it.
	endpoints, err := s.Endpoints(account)
	if err != nil {
		t.Fatal(err)
	}
	counts := []string{}
	for _, e := range endpoints {
		version := ""
		if e.APIVersion != nil {
			version = *e.APIVersion
		}
		counts = append(counts, fmt.Sprintf("%s %s %s %d", e.Method, e.Path, version, e.Requests))
	}
	sort.Strings(counts)
	wantCounts := []string{"GET /contacts/{id} v2 2", "GET /nowhere v2 1", "GET /usage/stream v2 1", "POST /messages v2 1", "POST /webhooks v2 1"}
	if fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
		t.Errorf("endpoints %v, want %v", counts, wantCounts)
	}
	if stats := c.Stats(); stats.Sent != 6 || stats.Queued != 0 || stats.DroppedQueueFull+stats.DroppedFailed != 0 {
		t.Errorf("stats %+v", stats)
	}
}

func capture(t *testing.T, s *Server, mount Mount) {
	account := s.Account()
	c := NewCollector(t, s, account, nil)
	options := Options()
	options.Capture = &opsconsole.Capture{AllHeaders: true, Bodies: true, MaxBodyBytes: 120}
	options.Sample = &opsconsole.Sample{Rate: 0, Always: opsconsole.SampleAlways{Status: "4xx"}}
	app := httptest.NewServer(mount(c, options))
	defer app.Close()
	const card = "4242424242424242"
	post := func(order map[string]interface{}) (call, string) {
		body, _ := json.Marshal(order)
		return do(t, app.Client(), "POST", app.URL+"/v2/orders", strings.NewReader(string(body)), map[string]string{
			"Content-Type": "application/json", "Authorization": "Bearer sk_live_capture", "X-Request-Id": "req-9",
		}), string(body)
	}
	kept, _ := post(map[string]interface{}{"items": []int{1, 2, 3}, "card": card})
	failed, sent := post(map[string]interface{}{"password": "pw_capture_1", "card": card, "note": strings.Repeat("x", 300)})
	if kept.status != 201 || failed.status != 422 || !strings.Contains(kept.body, `"count":3`) || !strings.Contains(kept.body, card) {
		t.Fatalf("the app did not read its body whole: %+v %+v", kept, failed)
	}
	requests, err := s.Eventually(account, 2, flusher(c))
	if err != nil || len(requests) != 2 {
		t.Fatalf("%d requests, %v", len(requests), err)
	}
	ok, bad := requests[0], requests[1]
	if ok.Status != 201 {
		ok, bad = bad, ok
	}
	// A success is sampled out at rate 0: its headers stay, its bodies go; it is still counted.
	if ok.RequestBody != nil || ok.ResponseBody != nil {
		t.Errorf("a sampled-out request kept its bodies: %s", ok.Raw)
	}
	if h := HeaderMap(ok.Headers); h["authorization"] != "[masked]" || h["x-request-id"] != "req-9" {
		t.Errorf("request headers %v", h)
	}
	if h := HeaderMap(ok.ResponseHeaders); !strings.HasPrefix(h["content-type"], "application/json") {
		t.Errorf("response headers %v", h)
	}
	// A 4xx always keeps them: masked, cut at 120 bytes with the whole size. (The collector sends
	// the first 120 bytes; the server, told the text was cut, keeps it short of the cut's margin.)
	request := bad.RequestBody
	wantText := (`{"card":"[masked]","note":"` + strings.Repeat("x", 300) + `","password":"[masked]"}`)[:120]
	if request == nil || request.ContentType != "application/json" || request.Size != int64(len(sent)) || !request.Truncated || request.Text == nil ||
		!strings.HasPrefix(wantText, *request.Text) || len(*request.Text) < 40 {
		t.Errorf("request body %+v, want a prefix of %q (size %d)", request, wantText, len(sent))
	}
	var answered map[string]interface{}
	if bad.ResponseBody == nil || bad.ResponseBody.Text == nil || json.Unmarshal([]byte(*bad.ResponseBody.Text), &answered) != nil ||
		fmt.Sprint(answered) != fmt.Sprint(map[string]interface{}{"error": "items_missing", "card": "[masked]"}) {
		t.Errorf("response body %+v", bad.ResponseBody)
	}
	for _, secret := range []string{"sk_live_capture", "pw_capture_1", card} {
		if Contains(secret, ok.Raw, bad.Raw) {
			t.Errorf("%s was sent", secret)
		}
	}
}

func abandoned(t *testing.T, s *Server, mount Mount) {
	account := s.Account()
	c := NewCollector(t, s, account, nil)
	app := httptest.NewServer(mount(c, Options()))
	defer app.Close()
	ctx, cancel := context.WithCancel(context.Background())
	request, _ := http.NewRequestWithContext(ctx, "GET", app.URL+"/v2/slow", nil)
	answered := make(chan error, 1)
	go func() {
		response, err := app.Client().Do(request)
		if err == nil {
			response.Body.Close()
		}
		answered <- err
	}()
	select {
	case <-SlowArrivals:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow request never arrived")
	}
	cancel()
	if err := <-answered; err == nil {
		t.Fatal("the slow answer came before the client went away")
	}
	requests, err := s.Eventually(account, 1, flusher(c))
	if err != nil || len(requests) != 1 || requests[0].Route != "/slow" || requests[0].Status != 499 {
		t.Fatalf("want /slow recorded as 499, got %+v (%v)", requests, err)
	}
}
