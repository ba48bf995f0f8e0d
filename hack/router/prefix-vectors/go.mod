module modelplane.dev/hack/prefixvectors

go 1.22

require github.com/cespare/xxhash/v2 v2.3.0
