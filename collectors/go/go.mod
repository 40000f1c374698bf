module github.com/ops-console/ops-console/collectors/go

go 1.19
