module github.com/ops-console/ops-console/collectors/go/gorillamux

go 1.19

require (
	github.com/gorilla/mux v1.8.0
	github.com/ops-console/ops-console/collectors/go v0.0.0
)

// No module proxy here: gorilla/mux from Debian's golang-github-gorilla-mux-dev, the core from this repository.
replace github.com/gorilla/mux => /usr/share/gocode/src/github.com/gorilla/mux

replace github.com/ops-console/ops-console/collectors/go => ../
