package opsconsole_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ops-console/ops-console/collectors/go/internal/consoletest"
)

// An adopter's API in a module of its own, outside this one: it requires the collector through a
// replace directive, as the README says, is built with `go build` and run, and its requests reach
// the console server, each under its route and status.
const adopterMain = `package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
)

func main() {
	c, err := opsconsole.New(opsconsole.Options{URL: os.Args[1], IngestKey: os.Args[2]})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/contacts/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "{}") })
	route := func(r *http.Request) string {
		if strings.HasPrefix(r.URL.Path, "/contacts/") {
			return "/contacts/{id}"
		}
		return r.URL.Path
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(listener, c.Handler(mux, opsconsole.CollectOptions{Route: route, APIVersion: opsconsole.Version{Fixed: "adopter"}}))
	origin := "http://" + listener.Addr().String()
	var statuses []string
	for _, path := range []string{"/contacts/c_1", "/contacts/c_2", "/nowhere"} {
		response, err := http.Get(origin + path)
		if err != nil {
			panic(err)
		}
		response.Body.Close()
		statuses = append(statuses, fmt.Sprint(response.StatusCode))
	}
	if err := c.Close(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(strings.Join(statuses, " "), c.Stats().Sent)
}
`

func TestAdopterModuleWithReplaceDirective(t *testing.T) {
	server := needConsole(t)
	account := server.Account()
	root, err := consoletest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/adopter\n\ngo 1.19\n\nrequire github.com/ops-console/ops-console/collectors/go v0.0.0\n\n" +
		"replace github.com/ops-console/ops-console/collectors/go => " + filepath.Join(root, "collectors", "go") + "\n"
	for name, text := range map[string]string{"go.mod": goMod, "main.go": adopterMain} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", "adopter", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "adopter"), server.URL, account.IngestKey).Output()
	if err != nil {
		t.Fatalf("the adopter's API: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "200 200 404 3" {
		t.Fatalf("statuses and events sent: %q", got)
	}
	requests, err := server.Requests(account)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, r := range requests {
		version := ""
		if r.APIVersion != nil {
			version = *r.APIVersion
		}
		kept = append(kept, r.Method+" "+r.Route+" "+r.Path+" "+version+" "+strconv.Itoa(r.Status))
	}
	sort.Strings(kept)
	want := []string{"GET /contacts/{id} /contacts/c_1 adopter 200", "GET /contacts/{id} /contacts/c_2 adopter 200", "GET /nowhere /nowhere adopter 404"}
	if strings.Join(kept, "\n") != strings.Join(want, "\n") {
		t.Fatalf("kept:\n%s\nwant:\n%s", strings.Join(kept, "\n"), strings.Join(want, "\n"))
	}
}
