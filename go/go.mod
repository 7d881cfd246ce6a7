module github.com/libsched/libsched/go

go 1.22
