// Prints reference vectors for the router's prefix hashing tests, computed with the same xxhash library and the same
// chaining GIE's approximate prefix cache uses (h0 = xxh64(model ‖ salt), hi = xxh64(block ‖ LE64(h(i-1)))).
// Run: cd hack/router/prefix-vectors && GOFLAGS=-mod=mod GOPROXY=off go run .
package main

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/cespare/xxhash/v2"
)

func chain(input, model, salt string, blockTokens, maxBlocks int) []uint64 {
	blockChars := blockTokens * 4
	if len(input) < blockChars {
		return nil
	}
	if len(input) > blockChars*maxBlocks {
		input = input[:blockChars*maxBlocks]
	}
	h := xxhash.New()
	h.Write([]byte(model))
	if salt != "" {
		h.Write([]byte(salt))
	}
	prev := h.Sum64()
	var out []uint64
	buf := make([]byte, 8)
	for i := 0; i+blockChars <= len(input); i += blockChars {
		h.Reset()
		h.Write([]byte(input[i : i+blockChars]))
		binary.LittleEndian.PutUint64(buf, prev)
		h.Write(buf)
		prev = h.Sum64()
		out = append(out, prev)
	}
	return out
}

func main() {
	for _, s := range []string{"", "a", "abc", "hello, world", strings.Repeat("0123456789", 10)} {
		fmt.Printf("xxh64 %q %016x\n", s, xxhash.Sum64String(s))
	}
	prompt := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 8) // 360 bytes
	for _, c := range []struct {
		model, salt string
		block, max  int
	}{{"llama-3", "", 16, 256}, {"llama-3", "tenant-a", 16, 256}, {"qwen", "", 16, 256}, {"llama-3", "", 4, 3}} {
		fmt.Printf("chain model=%s salt=%s block=%d max=%d:", c.model, c.salt, c.block, c.max)
		for _, v := range chain(prompt, c.model, c.salt, c.block, c.max) {
			fmt.Printf(" %016x", v)
		}
		fmt.Println()
	}
}
