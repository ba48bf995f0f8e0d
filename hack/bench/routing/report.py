"""Summarises a routing benchmark run (hack/bench/routing.sh): one markdown table per run directory, from genai-bench's
result files and the servers' counters before and after each contender, TTFT per model name over every level when
the run sent more than one (the mixed workload's LoRA share; from the per-request log), and two plots (TTFT CDF at
the highest concurrency, output throughput vs concurrency) as PNG beside them.

usage: python report.py RUN_DIR CONTENDER...
"""
import glob
import json
import os
import re
import sys
from collections import defaultdict

# Model time runs TIME_SCALE times slower than the wall clock genai-bench measures (routing.sh TIME_SCALE).
TIME_SCALE = float(os.environ.get("TIME_SCALE", "1"))


def results(run, contender):
    out = {}
    for path in glob.glob(os.path.join(run, "genai-bench", contender, "*_num_concurrency_*.json")):
        data = json.load(open(path))
        out[data["aggregated_metrics"]["num_concurrency"]] = data
    return dict(sorted(out.items()))


def counters(path):
    values = defaultdict(float)
    if not os.path.exists(path):
        return values
    for line in open(path):
        m = re.match(r"(\S+) (vllm:[a-z_]+)(\{[^}]*\})? (\S+)$", line.strip())
        if m:
            values[(m.group(1), m.group(2))] += float(m.group(4))
    return values


def server_figures(run, contender):
    before = counters(os.path.join(run, contender + ".metrics-before"))
    after = counters(os.path.join(run, contender + ".metrics-after"))
    delta = {k: after[k] - before.get(k, 0.0) for k in after}
    hits = sum(v for (ip, name), v in delta.items() if name == "vllm:prefix_cache_hits_total")
    queries = sum(v for (ip, name), v in delta.items() if name == "vllm:prefix_cache_queries_total")
    per_server = [v for (ip, name), v in delta.items() if name == "vllm:request_success_total"]
    balance = max(per_server) / (sum(per_server) / len(per_server)) if per_server and sum(per_server) else float("nan")
    return (hits / queries if queries else float("nan")), balance


def ms(stats, key):
    return 1000 * stats[key]


def main(run, contenders):
    unit = None
    lines = ["| contender | concurrency | TTFT p50 | TTFT p90 | TTFT p99 | E2E p50 | E2E p90 | output tok/s | req/s | errors |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    all_results = {c: results(run, c) for c in contenders}
    for contender in contenders:
        for conc, data in all_results[contender].items():
            agg = data["aggregated_metrics"]
            unit = data.get("_time_unit", "s")
            scale = (1000 if unit == "s" else 1) / TIME_SCALE
            st = agg["stats"]
            lines.append("| %s | %d | %.0f ms | %.0f ms | %.0f ms | %.2f s | %.2f s | %.0f | %.2f | %.1f %% |" % (
                contender, conc, scale * st["ttft"]["p50"], scale * st["ttft"]["p90"], scale * st["ttft"]["p99"],
                scale * st["e2e_latency"]["p50"] / 1000, scale * st["e2e_latency"]["p90"] / 1000,
                TIME_SCALE * agg["mean_output_throughput_tokens_per_s"], TIME_SCALE * agg["requests_per_second"],
                100 * agg["error_rate"]))
    lines.append("")
    lines.append("| contender | prefix-cache hit rate | busiest server / mean (requests) |")
    lines.append("|---|---|---|")
    for contender in contenders:
        hit, balance = server_figures(run, contender)
        lines.append("| %s | %.1f %% | %.2f |" % (contender, 100 * hit, balance))
    lines += per_model(run, contenders)
    table = "\n".join(lines)
    open(os.path.join(run, "report.md"), "w").write(table + "\n")
    print(table)
    plots(run, contenders, all_results)


def per_model(run, contenders):
    rows = []
    for contender in contenders:
        path = os.path.join(run, contender + ".requests.jsonl")
        if not os.path.exists(path):
            continue
        by_model = defaultdict(list)
        for line in open(path):
            r = json.loads(line)
            if r.get("status") == 200 and r.get("ttft") is not None:
                by_model[r.get("model")].append(1000 * r["ttft"] / TIME_SCALE)
        if len(by_model) < 2:
            continue
        for model, ttft in sorted(by_model.items(), key=lambda kv: -len(kv[1])):
            ttft.sort()
            rows.append("| %s | %s | %d | %.0f ms | %.0f ms |" % (contender, model, len(ttft),
                                                                 ttft[len(ttft) // 2], ttft[int(0.9 * (len(ttft) - 1))]))
    if not rows:
        return []
    return ["", "| contender | model (every level) | requests | TTFT p50 | TTFT p90 |", "|---|---|---|---|---|"] + rows


def plots(run, contenders, all_results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cdf, tput) = plt.subplots(1, 2, figsize=(11, 4))
    for contender in contenders:
        res = all_results[contender]
        if not res:
            continue
        top = res[max(res)]
        scale = (1000 if top.get("_time_unit", "s") == "s" else 1) / TIME_SCALE
        ttfts = sorted(scale * r["ttft"] for r in top["individual_request_metrics"] if r.get("ttft") is not None)
        if ttfts:
            cdf.plot(ttfts, [(i + 1) / len(ttfts) for i in range(len(ttfts))], label=contender)
        tput.plot(list(res), [TIME_SCALE * d["aggregated_metrics"]["mean_output_throughput_tokens_per_s"]
                              for d in res.values()],
                  marker="o", label=contender)
    cdf.set_xscale("log")
    cdf.set_xlabel("TTFT (ms), highest concurrency")
    cdf.set_ylabel("fraction of requests")
    cdf.grid(True, alpha=0.3)
    cdf.legend()
    tput.set_xlabel("concurrent requests")
    tput.set_ylabel("output tokens/s")
    tput.grid(True, alpha=0.3)
    tput.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "routing.png"), dpi=110)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
