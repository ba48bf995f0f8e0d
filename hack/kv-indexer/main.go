// kv-indexer: a loopback probe around llm-d-kv-cache's KV-events subscriber and block index, so tests can check that
// the events a server publishes land in an independent indexer and that a prompt's token ids find the server's blocks.
// Everything that decides a result is llm-d's own code: its ZMQ SUB subscriber (bind or connect), its vLLM event
// adapter, its event pool, its chunked token processor (the request keys) and its index and longest-prefix scorer.
// This file only wires them to flags and answers over HTTP on 127.0.0.1:
//
//	POST /lookup  {"model": "m", "lora": "optional", "token_ids": [1, 2, ...]}
//	              → {"model", "block_size", "blocks", "block_keys", "pods": {"<pod>": {"blocks", "score"}}}
//	GET  /stats   batches, events, sequence numbers, gaps and decode errors per topic
//	GET  /healthz
//
// Run: kv-indexer --bind tcp://127.0.0.1:5557 --port 8099 [--connect tcp://127.0.0.1:5556] [--block-size 16]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/llm-d/llm-d-kv-cache/pkg/kvcache"
	"github.com/llm-d/llm-d-kv-cache/pkg/kvcache/kvblock"
	"github.com/llm-d/llm-d-kv-cache/pkg/kvevents"
	"github.com/llm-d/llm-d-kv-cache/pkg/kvevents/engineadapter"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

type options struct {
	connect, bind         []string
	port                  int
	blockSize             int
	hashSeed, topicFilter string
	concurrency           int
	verbosity             int
}

type endpointList []string

func (l *endpointList) String() string     { return strings.Join(*l, ",") }
func (l *endpointList) Set(v string) error { *l = append(*l, v); return nil }

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var connect, bind endpointList
	fs := flag.NewFlagSet("kv-indexer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&connect, "connect", "ZMQ endpoint of an engine's PUB socket to dial, tcp://<loopback>:<port> (repeatable)")
	fs.Var(&bind, "bind", "ZMQ endpoint to listen on for engines that dial, tcp://<loopback>:<port> (repeatable)")
	fs.IntVar(&o.port, "port", 8099, "HTTP port on 127.0.0.1 (0: any free port)")
	fs.IntVar(&o.blockSize, "block-size", 16, "tokens per block of the token processor (llm-d's blockSizeTokens)")
	fs.StringVar(&o.hashSeed, "hash-seed", "", "seed of the token processor's hash chain (llm-d's hashSeed)")
	fs.StringVar(&o.topicFilter, "topic-filter", "kv@", "ZMQ subscription prefix")
	fs.IntVar(&o.concurrency, "concurrency", 4, "event pool workers")
	fs.IntVar(&o.verbosity, "v", 0, "log verbosity (llm-d logs at 4 for debug, 5 for trace)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if len(connect)+len(bind) == 0 {
		return o, errors.New("give at least one --connect or --bind endpoint")
	}
	for _, e := range append(append([]string{}, connect...), bind...) {
		if err := checkEndpoint(e); err != nil {
			return o, err
		}
	}
	switch {
	case o.port < 0 || o.port > 65535:
		return o, fmt.Errorf("--port %d is not a port", o.port)
	case o.blockSize < 1:
		return o, fmt.Errorf("--block-size must be at least 1, got %d", o.blockSize)
	case o.concurrency < 1:
		return o, fmt.Errorf("--concurrency must be at least 1, got %d", o.concurrency)
	}
	o.connect, o.bind = connect, bind
	return o, nil
}

// checkEndpoint accepts only tcp:// endpoints on a loopback address, so the probe never reaches beyond the machine.
func checkEndpoint(e string) error {
	u, err := url.Parse(e)
	if err != nil || u.Scheme != "tcp" || u.Port() == "" || u.Path != "" {
		return fmt.Errorf("endpoint %q: want tcp://<loopback address>:<port>", e)
	}
	if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("endpoint %q: bad port", e)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("endpoint %q: only loopback addresses are allowed", e)
	}
	return nil
}

// topicStats is what /stats reports for one ZMQ topic (kv@<pod>@<model>).
type topicStats struct {
	Pod          string         `json:"pod"`
	Model        string         `json:"model"`
	Batches      int            `json:"batches"`
	Events       map[string]int `json:"events"`
	FirstSeq     uint64         `json:"first_seq"`
	LastSeq      uint64         `json:"last_seq"`
	SeqGaps      int            `json:"seq_gaps"`
	DecodeErrors int            `json:"decode_errors"`
	LastError    string         `json:"last_error,omitempty"`
}

// countingAdapter wraps llm-d's engine adapter to count what it decodes; the pool calls ParseMessage in order per pod.
type countingAdapter struct {
	kvevents.EngineAdapter
	mu     sync.Mutex
	topics map[string]*topicStats
}

func (a *countingAdapter) ParseMessage(msg *kvevents.RawMessage) (string, string, kvevents.EventBatch, error) {
	pod, model, batch, err := a.EngineAdapter.ParseMessage(msg)
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.topics[msg.Topic]
	if s == nil {
		s = &topicStats{Events: map[string]int{}, FirstSeq: msg.Sequence}
		a.topics[msg.Topic] = s
	} else if msg.Sequence != s.LastSeq+1 {
		s.SeqGaps++
	}
	s.LastSeq = msg.Sequence
	if err != nil {
		s.DecodeErrors++
		s.LastError = err.Error()
		return pod, model, batch, err
	}
	s.Pod, s.Model = pod, model
	s.Batches++
	for _, e := range batch.Events {
		s.Events[string(e.Type())]++
	}
	return pod, model, batch, nil
}

func (a *countingAdapter) snapshot() ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return json.Marshal(map[string]any{"topics": a.topics})
}

type lookupRequest struct {
	Model    string   `json:"model"`
	Lora     string   `json:"lora"`
	TokenIDs []uint32 `json:"token_ids"`
}

type podHit struct {
	Blocks int     `json:"blocks"` // leading blocks of the request the index says the pod holds (any tier)
	Score  float64 `json:"score"`  // llm-d's longest-prefix score (tier-weighted block count)
}

type lookupResponse struct {
	Model     string            `json:"model"`
	BlockSize int               `json:"block_size"`
	Blocks    int               `json:"blocks"`
	BlockKeys []string          `json:"block_keys"`
	Pods      map[string]podHit `json:"pods"`
}

// lookup runs the scorer's path: llm-d's token processor turns the tokens into request keys (the LoRA name, when
// given, replaces the model as the events path does), the index answers which pods hold them, the scorer scores.
func lookup(ctx context.Context, indexer *kvcache.Indexer, blockSize int, req lookupRequest) (lookupResponse, error) {
	model := req.Model
	if req.Lora != "" {
		model = req.Lora
	}
	resp := lookupResponse{Model: model, BlockSize: blockSize, BlockKeys: []string{}, Pods: map[string]podHit{}}
	keys, err := indexer.ComputeBlockKeysFromTokens(ctx, req.TokenIDs, model, nil)
	if err != nil || len(keys) == 0 {
		return resp, err
	}
	resp.Blocks = len(keys)
	for _, k := range keys {
		resp.BlockKeys = append(resp.BlockKeys, k.String())
	}
	keyToPods, err := indexer.KVBlockIndex().Lookup(ctx, keys, nil)
	if err != nil {
		return resp, err
	}
	scores, err := indexer.ScoreTokens(ctx, req.TokenIDs, model, nil, nil)
	if err != nil {
		return resp, err
	}
	for pod, score := range scores {
		n := 0
		for n < len(keys) && holds(keyToPods[keys[n]], pod) {
			n++
		}
		resp.Pods[pod] = podHit{Blocks: n, Score: score}
	}
	return resp, nil
}

func holds(entries []kvblock.PodEntry, pod string) bool {
	for _, e := range entries {
		if e.PodIdentifier == pod {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func handler(ctx context.Context, indexer *kvcache.Indexer, adapter *countingAdapter, blockSize int) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		body, err := adapter.snapshot()
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(body, '\n'))
	})
	mux.HandleFunc("POST /lookup", func(w http.ResponseWriter, r *http.Request) {
		var req lookupRequest
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid body: " + err.Error()})
			return
		}
		if req.Model == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "model is required"})
			return
		}
		resp, err := lookup(ctx, indexer, blockSize, req)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, resp)
	})
	return mux
}

func run(ctx context.Context, o options, stdout io.Writer, logger logr.Logger) error {
	ctx = log.IntoContext(ctx, logger)
	tokenProcessor, err := kvblock.NewChunkedTokenDatabase(&kvblock.TokenProcessorConfig{
		BlockSizeTokens: o.blockSize, HashSeed: o.hashSeed})
	if err != nil {
		return err
	}
	cfg, err := kvcache.NewDefaultConfig()
	if err != nil {
		return err
	}
	indexer, err := kvcache.NewKVCacheIndexer(ctx, cfg, tokenProcessor)
	if err != nil {
		return err
	}
	vllm, err := engineadapter.NewAdapter(engineadapter.EngineTypeVLLM)
	if err != nil {
		return err
	}
	adapter := &countingAdapter{EngineAdapter: vllm, topics: map[string]*topicStats{}}
	pool := kvevents.NewPool(&kvevents.Config{TopicFilter: o.topicFilter, Concurrency: o.concurrency},
		indexer.KVBlockIndex(), tokenProcessor, adapter)
	pool.Start(ctx)
	subscribers := kvevents.NewSubscriberManager(pool)
	for _, e := range o.bind {
		if err := subscribers.EnsureSubscriber(ctx, "bind "+e, e, o.topicFilter, false); err != nil {
			return err
		}
	}
	for _, e := range o.connect {
		if err := subscribers.EnsureSubscriber(ctx, "connect "+e, e, o.topicFilter, true); err != nil {
			return err
		}
	}

	listener, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(o.port)))
	if err != nil {
		return err
	}
	server := &http.Server{Handler: handler(ctx, indexer, adapter, o.blockSize), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "kv-indexer listening on http://%s\n", listener.Addr())
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = server.Shutdown(shutdownCtx)
	}
	subscribers.Shutdown(ctx)
	pool.Shutdown(ctx)
	return err
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kv-indexer:", err)
		os.Exit(2)
	}
	logger := funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) },
		funcr.Options{Verbosity: o.verbosity, LogTimestamp: true})
	log.SetLogger(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout, logger); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "kv-indexer:", err)
		os.Exit(1)
	}
}
