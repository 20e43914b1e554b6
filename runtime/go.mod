module github.com/resilvet/resilvet/runtime

go 1.26.0
