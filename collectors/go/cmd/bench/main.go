// Command bench measures the CPU the collector's middleware adds per request to a real net/http
// API, the way the Node collector's bench (server/bench/collect.ts) does:
//
//   - the API is a real net/http server on loopback in a process of its own (this binary
//     re-executed with -api): three servers in that one process, loaded one at a time: `bare`
//     (a small JSON handler for GET /v2/contacts/{id}), `control` (bare again: the noise floor)
//     and `collector` (the same handler wrapped by the collector's middleware);
//   - the collector sends its batches to a real sink in another process: a discarding HTTP
//     server answering 202 (this binary re-executed with -sink), or with -console the real
//     console server (node server/src/cli/main.ts serve, as the tests start it);
//   - the load comes from this process: keep-alive clients on several connections, at a fixed
//     rate (-rate, as autocannon's overallRate in the Node bench) or as fast as they can (-rate 0);
//   - the figure is the API process's own CPU time (getrusage RUSAGE_SELF, user + system, every
//     goroutine: the collector's sending one and the GC too), read inside it before and after each
//     load, after the collector has sent what it holds, divided by the responses served;
//   - the variants alternate in rounds (each round starts one variant later); the figures are
//     the medians over rounds. With two CPUs or more the API process is pinned to one CPU and
//     everything else (the load, the sink) to another.
//
// It prints one JSON line: {"method","bareUs","controlUs","collectorUs","addedUs","addedShare","rounds":[…],…}.
//
// With -recorder it prints instead the older in-process figure: the handler served into an
// httptest.ResponseRecorder in this process, no network, no server (method says so).
//
//	cd collectors/go && GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off go run ./cmd/bench [-rounds 8] [-seconds 2] [-rate 2000] [-console]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
	"github.com/ops-console/ops-console/collectors/go/internal/consoletest"
)

// bare is the API's handler: a small JSON answer, as the Node bench's.
var bare = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"id":"`+id+`","name":"Contact"}`)
})

// collectOptions are the middleware's options in the bench: a route template and the version from the path.
var collectOptions = opsconsole.CollectOptions{
	Route:      func(*http.Request) string { return "/v2/contacts/{id}" },
	APIVersion: opsconsole.Version{PathPrefix: true},
}

var variants = []string{"bare", "control", "collector"}

func cpu() time.Duration {
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

func main() {
	api := flag.String("api", "", "(internal) serve the bench API, sending to this ingest URL")
	ingestKey := flag.String("key", "ik_bench_key_0123456789", "(internal) the ingest key of -api")
	sink := flag.Bool("sink", false, "(internal) serve a discarding ingest end")
	rounds := flag.Int("rounds", 8, "rounds (each loads every variant once)")
	seconds := flag.Float64("seconds", 2, "seconds of load per variant per round")
	rate := flag.Int("rate", 2000, "requests per second in all (0: as fast as the clients can)")
	connections := flag.Int("connections", 10, "keep-alive connections (one client goroutine each)")
	console := flag.Bool("console", false, "send to the real console server (node server/src/cli/main.ts serve) instead of a discarding sink")
	recorder := flag.Bool("recorder", false, "print the in-process httptest.ResponseRecorder figure instead")
	n := flag.Int("n", 1_000_000, "requests per measure with -recorder")
	flag.Parse()
	switch {
	case *sink:
		serveSink()
	case *api != "":
		serveAPI(*api, *ingestKey)
	case *recorder:
		inProcess(*n)
	default:
		if err := measure(*rounds, *seconds, *rate, *connections, *console); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
	}
}

func listen(h http.Handler) (int, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	go func() { _ = http.Serve(listener, h) }()
	return listener.Addr().(*net.TCPAddr).Port, nil
}

// serveSink is a discarding ingest end: it reads each batch and answers 202 as the ingest API does.
func serveSink() {
	port, err := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"accepted":0,"rejectedCount":0,"rejected":[]}`)
	}))
	if err != nil {
		panic(err)
	}
	fmt.Printf("http://127.0.0.1:%d\n", port)
	_, _ = io.Copy(io.Discard, os.Stdin) // ends with its parent
}

// reading is what the API process answers on each line in: its CPU time and its collector's counts.
type reading struct {
	CPUNs  int64 `json:"cpuNs"`
	Sent   int64 `json:"sent"`
	Failed int64 `json:"failed"`
	Queued int64 `json:"queued"`
}

// serveAPI runs the three servers, prints their ports, then answers a reading per line in (after a flush).
func serveAPI(ingestURL, key string) {
	if file := os.Getenv("BENCH_API_CPUPROFILE"); file != "" { // the API process's profile, all variants
		out, err := os.Create(file)
		if err != nil {
			panic(err)
		}
		_ = pprof.StartCPUProfile(out)
		defer pprof.StopCPUProfile()
	}
	c, err := opsconsole.New(opsconsole.Options{URL: ingestURL, IngestKey: key})
	if err != nil {
		panic(err)
	}
	ports := map[string]int{}
	for _, v := range variants {
		h := http.Handler(bare)
		if v == "collector" {
			h = c.Handler(bare, collectOptions)
		}
		if ports[v], err = listen(h); err != nil {
			panic(err)
		}
	}
	line, _ := json.Marshal(ports)
	fmt.Println(string(line))
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		// What the collector holds is sent first, so a batch's CPU counts where its requests did.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = c.Flush(ctx)
		cancel()
		s := c.Stats()
		line, _ := json.Marshal(reading{CPUNs: int64(cpu()), Sent: s.Sent, Failed: s.Rejected + s.DroppedQueueFull + s.DroppedFailed, Queued: s.Queued})
		fmt.Println(string(line))
	}
	_ = c.Close(context.Background())
}

// child is a process of this binary, talked to a line at a time.
type child struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Scanner
}

func start(args ...string) (*child, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	c := &child{cmd: cmd, in: in, lines: bufio.NewScanner(out)}
	first, err := c.line()
	return c, first, err
}

func (c *child) line() (string, error) {
	if !c.lines.Scan() {
		return "", fmt.Errorf("%s stopped: %v", c.cmd.Path, c.lines.Err())
	}
	return c.lines.Text(), nil
}

func (c *child) read() (reading, error) {
	var r reading
	if _, err := io.WriteString(c.in, "\n"); err != nil {
		return r, err
	}
	line, err := c.line()
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal([]byte(line), &r)
}

func (c *child) stop() {
	_ = c.in.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}

// pin puts every thread of a process on one CPU (taskset -a), where there are two or more.
func pin(pid, cpu int) bool {
	if runtime.NumCPU() < 2 {
		return false
	}
	return exec.Command("taskset", "-a", "-p", "-c", strconv.Itoa(cpu), strconv.Itoa(pid)).Run() == nil
}

// load sends GETs on keep-alive connections for a while; answers the responses (all 200) and the errors.
func load(url string, d time.Duration, rate, connections int) (int64, int64) {
	transport := &http.Transport{MaxIdleConnsPerHost: connections, MaxConnsPerHost: connections, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	var ok, failed int64
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for g := 0; g < connections; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var interval time.Duration
			next := time.Now()
			if rate > 0 {
				interval = time.Duration(float64(time.Second) * float64(connections) / float64(rate))
				next = next.Add(interval * time.Duration(g) / time.Duration(connections))
			}
			for i := 0; ; i++ {
				if rate > 0 {
					if wait := time.Until(next); wait > 0 {
						time.Sleep(wait)
					}
					next = next.Add(interval)
				}
				if time.Now().After(end) {
					return
				}
				response, err := client.Get(fmt.Sprintf("%s/v2/contacts/c_%d", url, i%1000))
				if err != nil {
					atomic.AddInt64(&failed, 1)
					continue
				}
				_, _ = io.Copy(io.Discard, response.Body)
				response.Body.Close()
				if response.StatusCode == http.StatusOK {
					atomic.AddInt64(&ok, 1)
				} else {
					atomic.AddInt64(&failed, 1)
				}
			}
		}(g)
	}
	wg.Wait()
	return ok, failed
}

type round struct {
	BareUs      float64 `json:"bareUs"`
	ControlUs   float64 `json:"controlUs"`
	CollectorUs float64 `json:"collectorUs"`
	Responses   int64   `json:"responses"`
	// The collector's responses and events sent in its load, and events left queued after the flush.
	CollectorResponses int64 `json:"collectorResponses"`
	Sent               int64 `json:"sent"`
	Queued             int64 `json:"queued"`
}

func median(values []float64) float64 {
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

func measure(rounds int, seconds float64, rate, connections int, useConsole bool) error {
	pinned := pin(os.Getpid(), 0)
	ingestURL, key, sinkName := "", "ik_bench_key_0123456789", ""
	if useConsole {
		s, err := consoletest.Start()
		if err != nil {
			return err
		}
		defer s.Stop()
		if s.URL == "" {
			return fmt.Errorf("the console server gave no URL")
		}
		pin(s.PID(), 0)
		ingestURL, key, sinkName = s.URL, s.Account().IngestKey, "the console server (node server/src/cli/main.ts serve, DuckDB store)"
	} else {
		sink, url, err := start("-sink")
		if err != nil {
			return err
		}
		defer sink.stop()
		pin(sink.cmd.Process.Pid, 0)
		ingestURL, sinkName = url, "a discarding HTTP server answering 202"
	}
	api, first, err := start("-api", ingestURL, "-key", key)
	if err != nil {
		return err
	}
	defer api.stop()
	pinned = pin(api.cmd.Process.Pid, 1) && pinned
	var ports map[string]int
	if err := json.Unmarshal([]byte(first), &ports); err != nil {
		return err
	}
	url := func(v string) string { return fmt.Sprintf("http://127.0.0.1:%d", ports[v]) }
	for _, v := range variants { // warm-up
		load(url(v), time.Second, rate, connections)
	}
	if _, err := api.read(); err != nil {
		return err
	}
	per := map[string][]float64{}
	var diffs []float64 // collector minus bare, round by round
	all := make([]round, rounds)
	var responses, errors, sent, failed int64
	for r := 0; r < rounds; r++ {
		for i := range variants {
			v := variants[(r+i)%len(variants)]
			before, err := api.read()
			if err != nil {
				return err
			}
			ok, bad := load(url(v), time.Duration(seconds*float64(time.Second)), rate, connections)
			time.Sleep(200 * time.Millisecond) // what the load left running ends
			after, err := api.read()
			if err != nil {
				return err
			}
			us := float64(after.CPUNs-before.CPUNs) / 1e3 / float64(ok)
			per[v] = append(per[v], us)
			switch v {
			case "bare":
				all[r].BareUs = round2(us)
			case "control":
				all[r].ControlUs = round2(us)
			case "collector":
				all[r].CollectorUs = round2(us)
				sent += after.Sent - before.Sent
				all[r].Sent, all[r].Queued, all[r].CollectorResponses = after.Sent-before.Sent, after.Queued, ok
				failed += after.Failed - before.Failed
			}
			all[r].Responses += ok
			responses += ok
			errors += bad
		}
	}
	for r := range per["bare"] {
		diffs = append(diffs, per["collector"][r]-per["bare"][r])
	}
	bareUs, controlUs, collectorUs := median(per["bare"]), median(per["control"]), median(per["collector"])
	rateText := fmt.Sprintf("%d req/s", rate)
	if rate <= 0 {
		rateText = "as fast as they answer"
	}
	pinText := ""
	if pinned {
		pinText = "; the API process pinned to CPU 1, the load and the sink to CPU 0"
	}
	method := fmt.Sprintf("net/http API on loopback in its own process (bare, control and collector servers, loaded in turn), "+
		"keep-alive GET /v2/contacts/{id} from another process (%d connections, %s, %.1f s per variant, %d rounds), "+
		"the API process's CPU (getrusage RUSAGE_SELF: every goroutine, the sender and GC included; read after a flush) per response, "+
		"medians over rounds; the collector sending to %s%s", connections, rateText, seconds, rounds, sinkName, pinText)
	out, _ := json.Marshal(map[string]interface{}{
		"method":      method,
		"bareUs":      round2(bareUs),
		"controlUs":   round2(controlUs),
		"collectorUs": round2(collectorUs),
		"addedUs":     round2(collectorUs - bareUs),
		"addedShare":  float64(int64((collectorUs-bareUs)/bareUs*1000+0.5)) / 1000,
		"noiseShare":  float64(int64((controlUs-bareUs)/bareUs*1000+0.5)) / 1000,
		// The median of the rounds' own differences (collector minus bare in the same round).
		"addedUsPairedMedian": round2(median(diffs)),
		"rounds":              all,
		"responses":           responses,
		"errors":              errors,
		"sent":                sent,
		"failed":              failed,
	})
	fmt.Println(string(out))
	return nil
}

// inProcess is the older figure: process CPU per request with the handler served into an
// httptest.ResponseRecorder in this process (no network, no server), the sink in this process too.
func inProcess(n int) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"accepted":0,"rejectedCount":0,"rejected":[]}`)
	}))
	defer sink.Close()
	c, err := opsconsole.New(opsconsole.Options{URL: sink.URL, IngestKey: "ik_bench_key_0123456789", MaxQueue: 1 << 20, MaxQueueBytes: 1 << 30})
	if err != nil {
		panic(err)
	}
	measured := c.Handler(bare, collectOptions)
	perRequest := func(h http.Handler, n int, after func()) float64 {
		request := httptest.NewRequest("GET", "/v2/contacts/c_1?expand=all", nil)
		runtime.GC()
		started := cpu()
		for i := 0; i < n; i++ {
			h.ServeHTTP(httptest.NewRecorder(), request)
		}
		if after != nil {
			after()
		}
		return float64(cpu()-started) / float64(n)
	}
	perRequest(bare, n/10, nil) // warm up
	perRequest(measured, n/10, nil)
	flush := func() { _ = c.Flush(context.Background()) }
	bareNs, collectorNs := perRequest(bare, n, nil), perRequest(measured, n, flush)
	_ = c.Close(context.Background())
	out, _ := json.Marshal(map[string]interface{}{
		"method": "in process, NOT a real server: the handler served into an httptest.ResponseRecorder, no network; process CPU per request (the sender and GC included)",
		"bareUs": round2(bareNs / 1e3), "collectorUs": round2(collectorNs / 1e3), "addedUs": round2((collectorNs - bareNs) / 1e3),
		"addedShare": float64(int64((collectorNs-bareNs)/bareNs*1000+0.5)) / 1000, "requests": n, "sent": c.Stats().Sent,
	})
	fmt.Println(string(out))
}
