module github.com/phpdave11/gofpdi

go 1.12

require github.com/pkg/errors v0.8.1
