#!/usr/bin/env bash
# Routing-quality benchmark (docs/benchmarks.md): eight simulated "Llama 3.1 8B on H100" servers on the local
# platform (live pods of hack/bench/routing/endpoints.yaml), the same seeded workload sent by genai-bench (PyPI)
# through each contender in turn, and a report of TTFT, throughput, prefix-cache hits and per-endpoint balance.
#
#   hack/bench/routing.sh [workload] [concurrency...]
#   hack/bench/routing.sh all          every workload in turn (closed-loop levels 16 32 64 128), one platform
#
# Workloads: shared-prefix (default) and mixed are closed-loop, one genai-bench run per concurrency level (mixed
# sends a share of its requests to the servers' LoRA adapters: LORA_SHARE, default "support-tone:0.1 sql-expert:0.1",
# empty for none); overload
# and ramp are open-loop (Poisson arrivals, paced_genai_bench.py) against servers of 4 sequences each, so that the
# servers, not the machine's cores, are what runs out: overload sends critical, standard and sheddable requests
# (InferenceObjectives of endpoints.yaml) at 0.5x capacity each after an unloaded run of critical ones at 0.2x;
# ramp goes from 0.25x to 2x capacity and back in 10 s stages. Capacity is measured first (closed loop at twice the
# servers' sequences, through the modelplane router) unless CAPACITY_RPS gives it (wall-clock requests/s at the
# same TIME_SCALE). prefix-ladder is the shared-prefix workload open-loop, llm-d's way: Poisson arrivals in stages of constant rate (LADDER, fractions of the capacity
# measured with 128 users after 64 warmed the caches; default 0.3 0.5 0.7 0.85, LADDER_STAGE_SECONDS each, default
# 30) against the servers' full 32 sequences, so a router whose placement wastes capacity falls behind the offered load and its queues grow.
# long-prefix is llm-d's published precise-routing shape scaled to the eight servers: 64 groups of 6,000-token system
# prompts (73 % of the servers' KV caches), five 1,200-token questions each, on the same open-loop ladder (LADDER,
# default 0.3 0.6 0.9 1.2 of the capacity measured as for prefix-ladder), every server publishing its KV-cache events.
#
# Contenders: modelplane (the router's default configuration), predictive (the predicted-latency-scorer alone, with
# the approximate prefix index feeding it), flow (the default scorers with flow control: requests wait in the router
# by priority while the pool is saturated, at most 32 sheddable ones, more get 429; the saturation detector with
# GIE's defaults), flow-q1 (the same with the detector's queueDepthThreshold at 1, so the servers' own queues stay
# short and the router's priority queue decides), flow-holdback (flow control that keeps sequences free for higher
# priorities: concurrency-detector at the servers' --max-num-seqs, as saturation detector and as filter, and
# priority-holdback-policy with minCeiling HOLDBACK_MIN_CEILING, default 0.5, so standard requests stop at 75 % of
# the pool's sequences and sheddable ones at 50 %; docs/router.md), epp (the reference endpoint
# picker, llm-d-router's EPP, behind the modelplane gateway in client mode), haproxy-rr and haproxy-leastconn, random
# (uniform choice, what a Kubernetes Service does), precise (the default scorers with the precise-prefix-cache-scorer,
# reading the servers' KV-cache events, in place of the approximate one; the router tokenizes as the servers do),
# llmd (the reference EPP with llm-d's recommended configuration, common/.../picker/llm-d-recommended.yaml),
# epp-precise (the reference EPP with llm-d's precise prefix-cache configuration, tokenizing through one server's
# vLLM render endpoint and subscribed to every server's events). Two more run only when named: modelplane-llmd (this
# router with llm-d's recommended configuration) and tokenload (the default with token-load-scorer, weight
# TOKEN_LOAD_WEIGHT, default 2, threshold TOKEN_LOAD_THRESHOLD tokens, default 65536, added; docs/router.md, "The default
# profile"). CONTENDERS="modelplane epp" runs a subset; by default all but
# the flow ones on the closed-loop workloads; on overload all but predictive and haproxy-leastconn; on the ramp,
# which has no priorities, also none of flow-q1 and flow-holdback; on prefix-ladder and long-prefix all but
# predictive and the flow ones. The EPP is built once from a source
# checkout in LLMD_ROUTER_SRC (it is not served by the Go module proxy this machine reaches), or taken from EPP_BIN.
# ROUTER_ARGS adds options to the modelplane and predictive routers (e.g. "--log-level info,dev.modelplane.router=debug").
# TIME_SCALE (default 1) runs the servers' model time that many times slower than the wall clock (their
# --time-scale), so the two cores' own work — streaming every token through the router and the Python client — is
# small against the model's milliseconds; every figure is reported in model time (latencies divided by it,
# throughputs multiplied), and the open-loop stage lengths (OVERLOAD_SECONDS, RAMP_STAGE_SECONDS,
# LADDER_STAGE_SECONDS) are model seconds, so a run takes TIME_SCALE times longer on the wall clock.
# Everything listens on and connects to loopback only. Results go to ~/.cache/modelplane/bench-routing/<run>/.
# The whole script is one function, so editing it while it runs cannot change the run.
set -euo pipefail

# Global, not local to main: the EXIT trap runs after main has returned (pids too, so that a failed run stops
# what it started).
pids=()
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}/bench-routing/platform"

all() {
  local w
  for w in shared-prefix mixed overload ramp prefix-ladder; do
    if [ "$w" = shared-prefix ] || [ "$w" = mixed ]; then
      KEEP_PLATFORM=1 bash "$root/hack/bench/routing.sh" "$w" 16 32 64 128
    else
      KEEP_PLATFORM=1 bash "$root/hack/bench/routing.sh" "$w"
    fi
  done
  [ "${KEEP_PLATFORM:-}" = 1 ] || "$root/modelplane" down --state-dir "$state" >/dev/null 2>&1 || true
}

main() {
  local workload seed requests cache bench run java jar kubectl venv gb
  workload="${1:-shared-prefix}"
  shift || true
  local concurrency=("$@")
  [ ${#concurrency[@]} -gt 0 ] || concurrency=(16 32 64)
  local all="modelplane precise predictive epp llmd epp-precise haproxy-rr haproxy-leastconn random"
  case "$workload" in
    overload) all="modelplane precise flow flow-q1 flow-holdback epp llmd epp-precise haproxy-rr random" ;;
    ramp) all="modelplane precise flow epp llmd epp-precise haproxy-rr random" ;;
    prefix-ladder|long-prefix) all="modelplane precise epp llmd epp-precise haproxy-rr haproxy-leastconn random" ;;
  esac
  local contenders=(${CONTENDERS:-$all})
  seed="${SEED:-20261124}"
  local scale="${TIME_SCALE:-1}"
  export TIME_SCALE="$scale"
  requests="${REQUESTS_PER_RUN:-400}"
  cache="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}"
  bench="$cache/bench-routing"
  run="$bench/$(date -u +%Y%m%dT%H%M%SZ)-$workload"
  mkdir -p "$run"
  java="$("$root/hack/find-jdk")/bin/java"
  jar="$root/cli/target/modelplane.jar"
  kubectl="$("$root/hack/control-plane/build.sh" | tail -1)/kubectl"
  gb="$("$root/hack/bench/genai-bench.sh" | tail -1)"
  venv="$(dirname "$gb")"
  local haproxy=""
  if [[ " ${contenders[*]} " == *" haproxy-"* ]]; then haproxy="$("$root/hack/bench/haproxy.sh" | tail -1)"; fi
  local epp="${EPP_BIN:-$cache/llm-d-router/epp}"
  if [[ " ${contenders[*]} " =~ \ (epp|llmd|epp-precise)\  ]] && [ ! -x "$epp" ]; then
    [ -n "${LLMD_ROUTER_SRC:-}" ] \
      || { echo "routing.sh: the epp, llmd and epp-precise contenders need EPP_BIN or LLMD_ROUTER_SRC" >&2; exit 1; }
    echo "== building the reference EPP from $LLMD_ROUTER_SRC (a few minutes, once)" >&2
    mkdir -p "$(dirname "$epp")"
    (cd "$LLMD_ROUTER_SRC" && GOFLAGS=-mod=mod go build -o "$epp" ./cmd/epp) >&2
  fi

  pids=()
  # The modelplane router on the pool, gateway on port $1, log to $2, more options after.
  router() {
    local port="$1" log="$2"
    shift 2
    "$java" -jar "$jar" router --pool llama --pool-namespace bench --host 127.0.0.1 --port "$port" \
      --grpc-port 18712 --grpc-health-port 18713 --metrics-port 18714 --no-access-log "$@" > "$log" 2>&1 &
    pids+=($!)
  }
  stop_pids() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }
  # GIE's default scorers as the operator writes them (the same file), with the plugin entries $1 added after the
  # scorers, the profile entry $2 (if any) put first in the default profile, and the YAML on stdin appended.
  default_scorers_with() {
    awk -v plugins="$1" -v first="${2:-}" '{ print }
      /^- type: prefix-cache-scorer$/ { printf "%s", plugins }
      /^  plugins:$/ && first != "" { printf "%s", first }' \
      "$root/common/src/main/resources/dev/modelplane/common/picker/otterscale-default-plugins.yaml"
    cat
  }
  # The reference EPP with the options after, its log in epp-picker.log.
  epp_picker() {
    "$epp" --pool-name llama --pool-namespace bench --grpc-port 18722 --grpc-health-port 18723 \
      --metrics-port 18724 --secure-serving=false --metrics-endpoint-auth=false --zap-encoder console "$@" \
      > "$run/$contender-picker.log" 2>&1 &
    pids+=($!)
  }
  # KEEP_PLATFORM=1 leaves the platform running for the next run (which then reuses it).
  trap 'stop_pids; [ "${KEEP_PLATFORM:-}" = 1 ] || "$root/modelplane" down --state-dir "$state" >/dev/null 2>&1 || true' EXIT

  echo "== platform and endpoints" >&2
  "$root/modelplane" up --state-dir "$state" --port 18680 --grpc-port 18692 --grpc-health-port 18693 \
    --metrics-port 18694 --operator-port 18681 -f "$root/hack/bench/routing/endpoints.yaml" --timeout 10m >&2
  export KUBECONFIG="$state/kubeconfig"

  echo "== datasets and tokenizer" >&2
  local dataset="$run/prompts.txt"
  case "$workload" in
    shared-prefix) python3 "$root/hack/bench/routing/dataset.py" shared-prefix "$dataset" "$seed" 64 8 2000 50 ;;
    # 80 questions per group for the ladder's ~5,000 requests (a repeated whole prompt adds only its question's 50
    # tokens to what its group's prefix already hits).
    prefix-ladder) python3 "$root/hack/bench/routing/dataset.py" shared-prefix "$dataset" "$seed" 64 80 2000 50 ;;
    # llm-d's published shape (6,000-token system prompts, 1,200-token questions, 5 per group) with 64 groups: the
    # prefixes fill 64 x 6,000 = 384,000 tokens, 73 % of the eight servers' 8 x 65,536-token KV caches.
    long-prefix) python3 "$root/hack/bench/routing/dataset.py" shared-prefix "$dataset" "$seed" 64 5 6000 1200 ;;
    mixed) python3 "$root/hack/bench/routing/dataset.py" mixed "$dataset" "$seed" 2000 ;;
    overload|ramp) python3 "$root/hack/bench/routing/dataset.py" chat "$dataset" "$seed" 2000 ;;
    *) echo "routing.sh: unknown workload $workload" >&2; exit 2 ;;
  esac
  mkdir -p "$run/tokenizer"
  "$venv/python" "$root/cli/src/main/resources/dev/modelplane/cli/devcluster/tokenizer.py" "$run/tokenizer" "$dataset" \
    "$("$venv/python" -c 'import genai_bench, os; print(os.path.join(os.path.dirname(genai_bench.__file__), "data", "sonnet.txt"))')"

  local open_loop=0 max_seqs=32 capacity="${CAPACITY_RPS:-}"
  case "$workload" in
    overload|ramp) open_loop=1; max_seqs="${OPEN_LOOP_MAX_SEQS:-4}" ;;
    prefix-ladder|long-prefix) open_loop=1 ;;
  esac
  # prefix-ladder: a first level warms the prefix caches (cold, the first request of every group misses), the
  # faster level counts.
  local capacity_levels=(--num-concurrency "$((16 * max_seqs))")
  [ "$workload" != prefix-ladder ] && [ "$workload" != long-prefix ] \
    || capacity_levels=(--num-concurrency 64 --num-concurrency 128)
  set_server_arg "$kubectl" --max-num-seqs "$max_seqs"
  set_server_arg "$kubectl" --time-scale "$scale"
  echo "$scale" > "$run/time-scale.txt"

  # genai-bench against the gateway on port $1 into experiment folder $2: the wrapper's seed and options, "--", then
  # more genai-bench options.
  genai_bench() {
    local port="$1" folder="$2" wrapper=()
    shift 2
    while [ "$1" != -- ]; do wrapper+=("$1"); shift; done
    shift
    "$venv/python" "$root/hack/bench/routing/paced_genai_bench.py" "${wrapper[@]}" benchmark "$@" \
      --api-backend vllm --api-base "http://127.0.0.1:$port" --api-key none --task text-to-text \
      --api-model-name meta-llama/Llama-3.1-8B-Instruct --model-tokenizer "$run/tokenizer" \
      --dataset-path "$dataset" --additional-request-params '{"max_tokens": 100, "ignore_eos": true}' \
      --server-engine vLLM --experiment-base-dir "$run/genai-bench" --experiment-folder-name "$folder"
  }
  # One open-loop genai-bench process: folder, seed, objective ("" for none), arrival stages, start time ("" for when
  # its users are spawned, for a process that runs alone), users.
  paced() {
    local folder="$1" s="$2" objective="$3" stages="$4" start="$5" users="$6" n
    n="$("$venv/python" "$root/hack/bench/routing/paced_genai_bench.py" "$s" --arrivals "$stages" --count)"
    local extra=(--arrivals "$stages" --log "$run/$folder.arrivals.jsonl")
    [ -z "$start" ] || extra+=(--start-at "$start")
    [ -z "$objective" ] || extra+=(--header "x-gateway-inference-objective: $objective")
    (cd "$run" && genai_bench "$port" "$folder" "$s" "${extra[@]}" -- --num-concurrency "$users" \
      --max-requests-per-run "$n" --max-time-per-run 15) > "$run/$folder.genai-bench.log" 2>&1 && return 0
    # genai-bench cannot aggregate a run in which every request failed (all shed, say); its per-request log stands.
    [ "$(wc -l < "$run/$folder.arrivals.jsonl")" -eq "$n" ] \
      || { echo "genai-bench failed for $folder; see $run/$folder.genai-bench.log" >&2; return 1; }
  }
  rate() { awk -v c="$capacity" -v f="$1" 'BEGIN { printf "%.2f", c * f }'; }
  # Wall seconds of $1 model seconds.
  wall() { awk -v s="$scale" -v t="$1" 'BEGIN { printf "%d", s * t + 0.5 }'; }

  local port=18700
  if [ "$open_loop" = 1 ] && [ -z "$capacity" ]; then
    echo "== capacity (closed loop, ${capacity_levels[*]}, modelplane router)" >&2
    reset_caches "$kubectl"
    router "$port" "$run/capacity.log"
    wait_models "$port"
    (cd "$run" && genai_bench "$port" capacity "$seed" -- "${capacity_levels[@]}" \
      --max-requests-per-run 600 --max-time-per-run 5) > "$run/capacity.genai-bench.log" 2>&1 \
      || { echo "genai-bench failed measuring capacity; see $run/capacity.genai-bench.log" >&2; exit 1; }
    stop_pids
    capacity="$("$venv/python" -c 'import glob, json, sys
print("%.2f" % max(json.load(open(f))["aggregated_metrics"]["requests_per_second"]
                   for f in glob.glob(sys.argv[1] + "/*_num_concurrency_*.json")))' "$run/genai-bench/capacity")"
  fi
  # Capacity and arrival rates are wall-clock requests/s (capacity.txt too); model time is TIME_SCALE times that.
  [ "$open_loop" = 0 ] || { echo "capacity: $capacity requests/s on the wall clock (x$scale in model time)" >&2
    echo "$capacity" > "$run/capacity.txt"; }

  for contender in "${contenders[@]}"; do
    echo "== $contender" >&2
    reset_caches "$kubectl"
    local ips
    mapfile -t ips < <("$kubectl" get pods -n bench -l app=bench-llama --field-selector status.phase=Running \
      -o jsonpath='{range .items[*]}{.status.podIP}{"\n"}{end}')
    [ ${#ips[@]} -eq 8 ] || { echo "routing.sh: expected 8 endpoint pods, found ${#ips[@]}" >&2; exit 1; }
    case "$contender" in
      modelplane) router "$port" "$run/$contender.log" ${ROUTER_ARGS:-} ;;
      predictive) router "$port" "$run/$contender.log" --config-text "$(cat <<'YAML'
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: approx-prefix-cache-producer
- type: predicted-latency-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: predicted-latency-scorer
  - pluginRef: max-score-picker
YAML
)" ${ROUTER_ARGS:-} ;;
      flow|flow-q1)
        local depth=5
        [ "$contender" = flow ] || depth=1
        router "$port" "$run/$contender.log" --config-text "$(default_scorers_with \
          "- type: utilization-detector\n  parameters:\n    queueDepthThreshold: $depth\n" <<'YAML'
featureGates: [flowControl]
saturationDetector:
  pluginRef: utilization-detector
flowControl:
  priorityBands:
  - priority: -10
    maxRequests: 32
YAML
)" ${ROUTER_ARGS:-} ;;
      flow-holdback)
        local holdback="- type: concurrency-detector\n  parameters:\n    maxConcurrency: $max_seqs\n"
        holdback+="- type: priority-holdback-policy\n  parameters:\n    minCeiling: ${HOLDBACK_MIN_CEILING:-0.5}\n"
        router "$port" "$run/$contender.log" --config-text "$(default_scorers_with "$holdback" \
          "  - pluginRef: concurrency-detector\n" <<'YAML'
featureGates: [flowControl]
saturationDetector:
  pluginRef: concurrency-detector
flowControl:
  usageLimitPolicyPluginRef: priority-holdback-policy
  priorityBands:
  - priority: 100
  - priority: 0
  - priority: -10
    maxRequests: 32
YAML
)" ${ROUTER_ARGS:-} ;;
      random) router "$port" "$run/$contender.log" --config-text "$(cat <<'YAML'
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: random-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: random-picker
YAML
)" ;;
      precise) router "$port" "$run/$contender.log" --tokenizer word --config-text "$(precise_scorers)" \
          ${ROUTER_ARGS:-} ;;
      modelplane-llmd) router "$port" "$run/$contender.log" \
          --config "$root/common/src/main/resources/dev/modelplane/common/picker/llm-d-recommended.yaml" \
          ${ROUTER_ARGS:-} ;;
      tokenload) router "$port" "$run/$contender.log" --config-text "$(default_scorers_with \
          "- type: inflight-load-producer\n- type: token-load-scorer\n  parameters:\n    queueThresholdTokens: ${TOKEN_LOAD_THRESHOLD:-65536}\n" \
          "  - pluginRef: token-load-scorer\n    weight: ${TOKEN_LOAD_WEIGHT:-2}\n" </dev/null)" ${ROUTER_ARGS:-} ;;
      llmd)
        epp_picker --config-file "$root/common/src/main/resources/dev/modelplane/common/picker/llm-d-recommended.yaml"
        router "$port" "$run/$contender.log" --epp 127.0.0.1:18722 --epp-tls=false ;;
      epp-precise)
        epp_picker --config-text "$(epp_precise_config "http://${ips[0]}:8000")"
        router "$port" "$run/$contender.log" --epp 127.0.0.1:18722 --epp-tls=false ;;
      epp)
        "$epp" --pool-name llama --pool-namespace bench --grpc-port 18722 --grpc-health-port 18723 \
          --metrics-port 18724 --secure-serving=false --metrics-endpoint-auth=false --zap-encoder console \
          > "$run/epp-picker.log" 2>&1 &
        pids+=($!)
        router "$port" "$run/$contender.log" --epp 127.0.0.1:18722 --epp-tls=false ;;
      haproxy-rr|haproxy-leastconn)
        local balance=roundrobin
        [ "$contender" = haproxy-leastconn ] && balance=leastconn
        {
          printf 'global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 10m\n'
          printf '  timeout server 10m\nfrontend gateway\n  bind 127.0.0.1:%s\n  default_backend servers\n' "$port"
          printf 'backend servers\n  balance %s\n' "$balance"
          local i=0
          for ip in "${ips[@]}"; do printf '  server s%d %s:8000 maxconn 1000\n' "$i" "$ip"; i=$((i + 1)); done
        } > "$run/$contender.cfg"
        "$haproxy" -f "$run/$contender.cfg" -db > "$run/$contender.log" 2>&1 &
        pids+=($!) ;;
      *) echo "routing.sh: unknown contender $contender" >&2; exit 2 ;;
    esac
    wait_models "$port"
    case "$contender" in precise|epp-precise) wait_subscribed "$contender" ;; esac
    scrape "${ips[@]}" > "$run/$contender.metrics-before"
    case "$workload" in
      shared-prefix|mixed)
        local args=() wrapper=(--log "$run/$contender.requests.jsonl") share
        for c in "${concurrency[@]}"; do args+=(--num-concurrency "$c"); done
        if [ "$workload" = mixed ]; then
          for share in ${LORA_SHARE-support-tone:0.1 sql-expert:0.1}; do wrapper+=(--model-share "$share"); done
        fi
        (cd "$run" && genai_bench "$port" "$contender" "$seed" "${wrapper[@]}" -- "${args[@]}" \
          --max-requests-per-run "$requests" \
          --max-time-per-run 5) > "$run/$contender.genai-bench.log" 2>&1 \
          || { echo "genai-bench failed for $contender; see $run/$contender.genai-bench.log" >&2; exit 1; }
        ;;
      overload)
        paced "$contender-unloaded" "$seed" critical "$(rate 0.2):$(wall 30)" "$(($(date +%s) + 12))" 100
        local start=$(($(date +%s) + 15)) i=0 cpids=()
        for objective in critical standard sheddable; do
          paced "$contender-$objective" "$((seed + i))" "$objective" "$(rate 0.5):$(wall "${OVERLOAD_SECONDS:-60}")" \
            "$start" 400 &
          cpids+=($!)
          i=$((i + 1))
        done
        for pid in "${cpids[@]}"; do wait "$pid" || exit 1; done
        ;;
      ramp)
        local stages="" f
        for f in 0.25 0.5 0.75 1 1.25 1.5 1.75 2 1.75 1.5 1.25 1 0.75 0.5 0.25; do
          stages+="${stages:+,}$(rate "$f"):$(wall "${RAMP_STAGE_SECONDS:-10}")"
        done
        paced "$contender-ramp" "$seed" "" "$stages" "" 1500
        ;;
      prefix-ladder|long-prefix)
        local stages="" f ladder="0.3 0.5 0.7 0.85"
        [ "$workload" = prefix-ladder ] || ladder="0.3 0.6 0.9 1.2"
        for f in ${LADDER:-$ladder}; do
          stages+="${stages:+,}$(rate "$f"):$(wall "${LADDER_STAGE_SECONDS:-30}")"
        done
        paced "$contender-ladder" "$seed" "" "$stages" "" 2000
        ;;
    esac
    scrape "${ips[@]}" > "$run/$contender.metrics-after"
    stop_pids
  done
  if [ "$workload" = prefix-ladder ] || [ "$workload" = long-prefix ]; then
    "$venv/python" "$root/hack/bench/routing/report_open.py" "$run" ladder "${LADDER_STAGE_SECONDS:-30}" \
      "${contenders[@]}"
  elif [ "$open_loop" = 1 ]; then
    "$venv/python" "$root/hack/bench/routing/report_open.py" "$run" "$workload" "${contenders[@]}"
  else
    "$venv/python" "$root/hack/bench/routing/report.py" "$run" "${contenders[@]}"
  fi
  echo "results: $run" >&2
}

# Empties every server's prefix cache between contenders by restarting the pods (the runner restarts a simulator
# that exits; deleting the pods makes new ones), so no contender inherits another's cache.
reset_caches() {
  local kubectl="$1"
  "$kubectl" rollout restart deployment/llama -n bench >&2
  "$kubectl" rollout status deployment/llama -n bench --timeout=300s >&2
}

# Sets one flag of every server (--max-num-seqs, --time-scale; a new rollout when it changes).
set_server_arg() {
  local kubectl="$1" flag="$2" want="$3" args i
  mapfile -t args < <("$kubectl" get deployment/llama -n bench \
    -o jsonpath='{range .spec.template.spec.containers[0].args[*]}{@}{"\n"}{end}')
  for i in "${!args[@]}"; do
    if [ "${args[$i]}" = "$flag" ] && [ "${args[$((i + 1))]}" != "$want" ]; then
      local path="/spec/template/spec/containers/0/args/$((i + 1))"
      "$kubectl" patch deployment/llama -n bench --type=json \
        -p "[{\"op\":\"replace\",\"path\":\"$path\",\"value\":\"$want\"}]" >&2
      "$kubectl" rollout status deployment/llama -n bench --timeout=300s >&2
    fi
  done
}

# The default scorers with the approximate prefix-cache scorer replaced by the precise one, reading each server's
# KV-cache events (port 5557, replay 5558, blocks of 16 tokens as the servers'), weight 3 as the approximate one's.
precise_scorers() {
  cat <<'YAML'
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: precise-prefix-cache-scorer
  parameters:
    tokenProcessorConfig: {blockSize: 16}
    kvEventsConfig: {discoverPods: true, podDiscoveryConfig: {socketPort: 5557, replayPort: 5558}}
- type: lora-affinity-scorer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: precise-prefix-cache-scorer
    weight: 3
  - pluginRef: lora-affinity-scorer
    weight: 2
YAML
}

# llm-d's precise prefix-cache configuration (its precise-prefix-cache-aware guide: precise 2, KV utilisation 1,
# queue 1) for the reference EPP: a token-producer that tokenizes through the vLLM render endpoint at $1 (one of
# the servers), the precise producer subscribed to every pod's events on port 5557, blocks of 16 tokens.
epp_precise_config() {
  cat <<YAML
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: token-producer
  parameters:
    modelName: meta-llama/Llama-3.1-8B-Instruct
    vllm: {url: "$1"}
- type: endpoint-notification-source
- type: metrics-data-source
- type: core-metrics-extractor
- type: single-profile-handler
- type: precise-prefix-cache-producer
  parameters:
    tokenProcessorConfig: {blockSize: 16}
    kvEventsConfig: {discoverPods: true, podDiscoveryConfig: {socketPort: 5557}}
- type: prefix-cache-scorer
  parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}
- type: kv-cache-utilization-scorer
- type: queue-scorer
- type: max-score-picker
dataLayer:
  sources:
  - pluginRef: metrics-data-source
    extractors: [{pluginRef: core-metrics-extractor}]
  - pluginRef: endpoint-notification-source
    extractors: [{pluginRef: precise-prefix-cache-producer}]
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: prefix-cache-scorer
    weight: 2.0
  - pluginRef: kv-cache-utilization-scorer
    weight: 1.0
  - pluginRef: queue-scorer
    weight: 1.0
  - pluginRef: max-score-picker
YAML
}

# Sends one chat through the gateway on port 18700 and waits (60 s at most) until a precise contender has read an
# event: a router's /metrics shows the pool in "precise" mode, the EPP's log names a subscribed pod.
wait_subscribed() {
  local contender="$1" words
  # Longer than a block of 16 tokens, so that the server stores one and publishes it.
  words="$(printf 'warm %.0s' $(seq 1 64))"
  for _ in $(seq 1 60); do
    curl -fsS -m 20 -o /dev/null "http://127.0.0.1:18700/v1/chat/completions" -H 'content-type: application/json' \
      -d "{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"$words\"}]}" \
      || true
    if [ "$contender" = precise ]; then
      curl -fsS -m 2 http://127.0.0.1:18714/metrics 2>/dev/null \
        | grep -qE 'modelplane_router_prefix_index_mode\{[^}]*mode="precise"[^}]*\} 1(\.0)?$' && return 0
    else
      sleep 5
      return 0
    fi
    sleep 1
  done
  echo "routing.sh: the $contender contender never read a KV event" >&2
  return 1
}

wait_models() {
  for _ in $(seq 1 150); do
    curl -fsS -m 2 "http://127.0.0.1:$1/v1/models" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "routing.sh: nothing answers on port $1" >&2
  return 1
}

# Each server's request, token and prefix-cache counters, one "ip name value" line per sample.
scrape() {
  for ip in "$@"; do
    curl -fsS -m 5 "http://$ip:8000/metrics" | grep -E '^vllm:(prefix_cache_(hits|queries)_total|request_success_total|generation_tokens_total)' \
      | sed "s/^/$ip /" || true
  done
}

if [ "${1:-}" = all ]; then all; else main "$@"; fi; exit
