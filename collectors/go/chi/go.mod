module github.com/ops-console/ops-console/collectors/go/chi

go 1.19

require (
	github.com/go-chi/chi/v5 v5.0.7
	github.com/ops-console/ops-console/collectors/go v0.0.0
)

// No module proxy here: chi from Debian's golang-github-go-chi-chi-dev, the core from this repository.
replace github.com/go-chi/chi/v5 => /usr/share/gocode/src/github.com/go-chi/chi

replace github.com/ops-console/ops-console/collectors/go => ../
