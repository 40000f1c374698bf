// Package consoletest starts the real Ops Console server for the collectors' tests, and holds the
// checks every router's collector passes (the Go side of server/test/collect-suite.ts).
package consoletest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Accounts is how many accounts the server is configured with: each test takes its own.
const Accounts = 40

// Server is a console server started for tests.
type Server struct {
	URL  string
	cmd  *exec.Cmd
	dir  string
	next int32
	logs *bytes.Buffer
}

// Account is one account of the server: a console token to read with and an ingest key to send with.
type Account struct {
	ID        string
	Token     string
	IngestKey string
}

// RepoRoot is the Ops Console repository holding this package: the first directory up from the
// working directory with server/src/cli/main.ts.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "server", "src", "cli", "main.ts")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no server/src/cli/main.ts above the working directory")
		}
		dir = parent
	}
}

// ErrNoNode says the tests cannot start the server: no Node to run it with.
var ErrNoNode = errors.New("no Node to run the console server with: set OPS_CONSOLE_NODE or run npm ci (node_modules/.bin/node)")

// Node is the Node binary the server runs with: $OPS_CONSOLE_NODE, else <repo>/node_modules/.bin/node.
func Node(root string) (string, error) {
	if node := os.Getenv("OPS_CONSOLE_NODE"); node != "" {
		return node, nil
	}
	node := filepath.Join(root, "node_modules", ".bin", "node")
	if _, err := os.Stat(node); err != nil {
		return "", ErrNoNode
	}
	return node, nil
}

func token(kind string, i int) string {
	return fmt.Sprintf("%s_go_collector_test_%04d_secret", kind, i)
}

// Start runs `node server/src/cli/main.ts serve --config <temp config>` with a DuckDB store in a
// temporary directory, and waits for its "listening" line.
func Start() (*Server, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	node, err := Node(root)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ops-console-go-collector-")
	if err != nil {
		return nil, err
	}
	tokens := map[string]interface{}{}
	keys := map[string]string{}
	for i := 1; i <= Accounts; i++ {
		account := fmt.Sprintf("acct_%d", i)
		tokens[token("tok", i)] = map[string]interface{}{"accountId": account, "user": map[string]string{"id": "u_ops", "name": "Operations"}}
		keys[token("ik", i)] = account
	}
	config, _ := json.Marshal(map[string]interface{}{
		"port": 0, "host": "127.0.0.1",
		"store":      "duckdb:" + filepath.Join(dir, "ops.duckdb"),
		"auth":       map[string]interface{}{"tokens": tokens},
		"ingestKeys": keys,
	})
	configPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(configPath, config, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(node, filepath.Join(root, "server", "src", "cli", "main.ts"), "serve", "--config", configPath)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	logs := &bytes.Buffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{cmd: cmd, dir: dir, logs: logs}
	found := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		scanner.Buffer(make([]byte, 64*1024), 1024*1024)
		for scanner.Scan() {
			var line struct {
				Msg string `json:"msg"`
				URL string `json:"url"`
			}
			if json.Unmarshal(scanner.Bytes(), &line) == nil && line.Msg == "listening" && line.URL != "" {
				select {
				case found <- line.URL:
				default:
				}
			}
		}
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			s.Stop()
			return nil, fmt.Errorf("the console server ended before listening: %s", logs.String())
		}
		s.URL = url
		return s, nil
	case <-time.After(90 * time.Second):
		s.Stop()
		return nil, fmt.Errorf("the console server did not listen within 90s: %s", logs.String())
	}
}

// Stop ends the server with SIGTERM (SIGKILL after 10s) and removes its directory.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		ended := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
			<-ended
		}
	}
	os.RemoveAll(s.dir)
}

// Account is a fresh account of the server, one per call: a test's figures are its own.
func (s *Server) Account() Account {
	i := int(atomic.AddInt32(&s.next, 1))
	if i > Accounts {
		panic("consoletest: more accounts asked for than configured")
	}
	return Account{ID: fmt.Sprintf("acct_%d", i), Token: token("tok", i), IngestKey: token("ik", i)}
}

// Get reads a console API route (`/console/v1/…`) as the account's operator; out may be nil.
func (s *Server) Get(account Account, path string, out interface{}) ([]byte, error) {
	request, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
	request.Header.Set("Authorization", "Bearer "+account.Token)
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	body, err := io.ReadAll(response.Body)
	if err != nil {
		return nil, err
	}
	if response.StatusCode != http.StatusOK {
		return body, fmt.Errorf("GET %s: %d %s", path, response.StatusCode, body)
	}
	if out != nil {
		return body, json.Unmarshal(body, out)
	}
	return body, nil
}

// Header is one kept header as GET /requests/{id} lists it.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Body is a kept body as GET /requests/{id} answers it.
type Body struct {
	ContentType string  `json:"contentType"`
	Size        int64   `json:"size"`
	Truncated   bool    `json:"truncated"`
	Text        *string `json:"text"`
}

// Request is one request of the log, as GET /requests/{id} answers it (and its JSON, whole).
type Request struct {
	ID              string   `json:"id"`
	Method          string   `json:"method"`
	Path            string   `json:"path"`
	Route           string   `json:"route"`
	Status          int      `json:"status"`
	DurationMs      float64  `json:"durationMs"`
	Time            string   `json:"time"`
	APIVersion      *string  `json:"apiVersion"`
	KeyID           *string  `json:"keyId"`
	Bytes           *int64   `json:"bytes"`
	Headers         []Header `json:"headers"`
	ResponseHeaders []Header `json:"responseHeaders"`
	RequestBody     *Body    `json:"requestBody"`
	ResponseBody    *Body    `json:"responseBody"`
	Payload         string   `json:"payload"`
	Customer        *struct {
		ID string `json:"id"`
	} `json:"customer"`
	Actor *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"actor"`
	Raw string `json:"-"`
}

// HeaderMap is the kept headers by name.
func HeaderMap(headers []Header) map[string]string {
	m := map[string]string{}
	for _, h := range headers {
		m[h.Name] = h.Value
	}
	return m
}

// Requests is the account's requests, oldest first, each read whole with GET /requests/{id}.
func (s *Server) Requests(account Account) ([]Request, error) {
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if _, err := s.Get(account, "/console/v1/requests?limit=100", &page); err != nil {
		return nil, err
	}
	requests := make([]Request, 0, len(page.Items))
	for i := len(page.Items) - 1; i >= 0; i-- {
		var r Request
		raw, err := s.Get(account, "/console/v1/requests/"+page.Items[i].ID, &r)
		if err != nil {
			return nil, err
		}
		r.Raw = string(raw)
		requests = append(requests, r)
	}
	return requests, nil
}

// Endpoint is one row of GET /endpoints.
type Endpoint struct {
	ID         string  `json:"id"`
	Method     string  `json:"method"`
	Path       string  `json:"path"`
	Requests   int     `json:"requests"`
	APIVersion *string `json:"apiVersion"`
	ErrorPct   float64 `json:"errorPct"`
}

// Endpoints is the account's GET /endpoints rows.
func (s *Server) Endpoints(account Account) ([]Endpoint, error) {
	var page struct {
		Items []Endpoint `json:"items"`
	}
	_, err := s.Get(account, "/console/v1/endpoints?limit=100", &page)
	return page.Items, err
}

// Eventually reads the account's requests until there are want of them (or 15s passed).
func (s *Server) Eventually(account Account, want int, flush func()) ([]Request, error) {
	deadline := time.Now().Add(15 * time.Second)
	for {
		if flush != nil {
			flush()
		}
		requests, err := s.Requests(account)
		if err != nil || len(requests) >= want || time.Now().After(deadline) {
			return requests, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Contains says whether any of the texts holds s.
func Contains(s string, texts ...string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// PID is the server process's id (for a bench to pin it to a CPU).
func (s *Server) PID() int {
	if s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}
