"""Summarises an open-loop run of the routing benchmark (hack/bench/routing.sh overload | ramp) from the per-request
logs paced_genai_bench.py writes beside genai-bench (every figure is genai-bench's own measurement of a request):
a markdown table (report.md) and a plot (routing.png).

  overload  per contender and class (critical alone at 0.2x capacity first; then critical, standard and sheddable
            together at 0.5x each): offered and served requests/s, TTFT p50/p90/p99, E2E p90, shed (429) and other
            failures, and critical's TTFT p90 under overload over its unloaded p90; plot: TTFT CDF per class
  ramp      per contender: TTFT p50/p90/p99 and failures over the whole ramp, the worst 10 s window's TTFT p90, output
            tokens/s at the peak; plot: TTFT p90 per 10 s window beside the offered load
  ladder    per contender and stage of constant rate (the prefix-ladder workload): offered requests/s, TTFT
            p50/p90/p99, E2E p90, output tokens/s of the stage's requests, failures, TTFT p90 over haproxy-rr's in the
            same stage; the servers' prefix-cache hit rate and balance over the whole run; plot: TTFT p90 vs offered
            load, and the TTFT CDF of the last stage

usage: python report_open.py RUN_DIR overload|ramp CONTENDER...
       python report_open.py RUN_DIR ladder STAGE_SECONDS CONTENDER...
"""
import json
import os
import sys

import numpy as np

OVERLOAD_CLASSES = ["unloaded", "critical", "standard", "sheddable"]


# Model time runs TIME_SCALE times slower than the wall clock genai-bench measures (routing.sh TIME_SCALE): every time
# is divided by it as it is read, so rates, windows and stages below are all in model time.
TIME_SCALE = float(os.environ.get("TIME_SCALE", "1"))


def requests_of(run, folder):
    path = os.path.join(run, folder + ".arrivals.jsonl")
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        if line.strip():
            r = json.loads(line)
            for key in ("t", "ttft", "e2e"):  # lateness stays wall-clock: it is the client's
                if r.get(key) is not None:
                    r[key] = r[key] / TIME_SCALE
            out.append(r)
    return out


def pct(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def summary(reqs):
    ok = [r for r in reqs if r["status"] == 200]
    ttft = [1000 * r["ttft"] for r in ok if r["ttft"] is not None]
    e2e = [r["e2e"] for r in ok if r["e2e"] is not None]
    times = [r["t"] for r in reqs if r["t"] is not None]
    span = (max(times) - min(times)) if len(times) > 1 else float("nan")
    return {
        "n": len(reqs), "ok": len(ok), "shed": sum(r["status"] == 429 for r in reqs),
        "failed": sum(r["status"] not in (200, 429) for r in reqs),
        "late": sum(r["late"] > 0.1 for r in reqs),
        "offered": len(reqs) / span if span and span == span else float("nan"),
        "ttft": ttft, "p50": pct(ttft, 50), "p90": pct(ttft, 90), "p99": pct(ttft, 99), "e2e90": pct(e2e, 90),
    }


def overload(run, contenders):
    lines = ["| contender | class | offered req/s | served | TTFT p50 | TTFT p90 | TTFT p99 | E2E p90 | shed (429) "
             "| other failures | late sends | TTFT p90 / unloaded |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    data = {}
    for c in contenders:
        unloaded = None
        for cls in OVERLOAD_CLASSES:
            reqs = requests_of(run, f"{c}-{cls}")
            if not reqs:
                continue
            s = summary(reqs)
            data[(c, cls)] = s
            if cls == "unloaded":
                unloaded = s["p90"]
            ratio = s["p90"] / unloaded if unloaded and cls != "unloaded" else float("nan")
            lines.append("| %s | %s | %.1f | %d / %d | %.0f ms | %.0f ms | %.0f ms | %.2f s | %d | %d | %d | %s |" % (
                c, cls, s["offered"], s["ok"], s["n"], s["p50"], s["p90"], s["p99"], s["e2e90"], s["shed"],
                s["failed"], s["late"], "%.2f×" % ratio if ratio == ratio else "—"))
    write(run, lines)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(14, 4), sharey=True)
    for ax, cls in zip(axes, OVERLOAD_CLASSES[1:]):
        for c in contenders:
            s = data.get((c, cls))
            if s and s["ttft"]:
                ttft = sorted(s["ttft"])
                # Fraction of all requests of the class, so shed ones keep the curve below 1.
                ax.plot(ttft, [(i + 1) / s["n"] for i in range(len(ttft))], label=c)
        ax.set_xscale("log")
        ax.set_title(cls + " (0.5x capacity each)")
        ax.set_xlabel("TTFT (ms)")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("fraction of the class's requests served within")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "routing.png"), dpi=110)


def windows(reqs, width):
    """(window start, TTFT p90 ms, arrivals/s, output tokens/s of the responses that arrived in it) per window."""
    out = []
    end = max((r["t"] for r in reqs if r["t"] is not None), default=0)
    start = 0.0
    while start <= end:
        inside = [r for r in reqs if r["t"] is not None and start <= r["t"] < start + width]
        ttft = [1000 * r["ttft"] for r in inside if r["status"] == 200 and r["ttft"] is not None]
        tokens = sum(r.get("tokens") or 0 for r in inside if r["status"] == 200)
        out.append((start, pct(ttft, 90), len(inside) / width, tokens / width))
        start += width
    return out


def ramp(run, contenders):
    lines = ["| contender | requests | TTFT p50 | TTFT p90 | TTFT p99 | E2E p90 | worst 10 s TTFT p90 | failed "
             "| late sends |",
             "|---|---|---|---|---|---|---|---|---|"]
    per = {}
    for c in contenders:
        reqs = requests_of(run, f"{c}-ramp")
        if not reqs:
            continue
        s = summary(reqs)
        w = windows(reqs, 10.0)
        per[c] = w
        worst = max((p for _, p, _, _ in w if p == p), default=float("nan"))
        lines.append("| %s | %d | %.0f ms | %.0f ms | %.0f ms | %.2f s | %.0f ms | %d | %d |" % (
            c, s["n"], s["p50"], s["p90"], s["p99"], s["e2e90"], worst, s["shed"] + s["failed"], s["late"]))
    write(run, lines)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    load = ax.twinx()
    for c, w in per.items():
        ax.plot([x + 5 for x, _, _, _ in w], [p for _, p, _, _ in w], marker="o", label=c)
    if per:
        w = next(iter(per.values()))
        load.bar([x + 5 for x, _, _, _ in w], [r for _, _, r, _ in w], width=9, alpha=0.12, color="gray")
    load.set_ylabel("arrivals/s (gray bars)")
    ax.set_zorder(load.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_yscale("log")
    ax.set_xlabel("seconds into the ramp (arrival time)")
    ax.set_ylabel("TTFT p90 of the window's arrivals (ms)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "routing.png"), dpi=110)


def ladder(run, stage_seconds, contenders):
    from report import server_figures

    stages = {}
    for c in contenders:
        reqs = requests_of(run, f"{c}-ladder")
        if reqs:
            stages[c] = [summary_window(reqs, start, stage_seconds) for start, _, _, _ in windows(reqs, stage_seconds)]
    baseline = stages.get("haproxy-rr")
    lines = ["| contender | stage | offered req/s | TTFT p50 | TTFT p90 | TTFT p99 | E2E p90 | output tok/s | failed "
             "| late sends | TTFT p90 / haproxy-rr |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c, per in stages.items():
        for i, s in enumerate(per):
            ratio = baseline[i]["p90"] if baseline and i < len(baseline) else float("nan")
            ratio = s["p90"] / ratio if ratio == ratio and ratio else float("nan")
            lines.append("| %s | %d | %.1f | %.0f ms | %.0f ms | %.0f ms | %.2f s | %.0f | %d | %d | %s |" % (
                c, i + 1, s["offered"], s["p50"], s["p90"], s["p99"], s["e2e90"], s["tokens"], s["shed"] + s["failed"],
                s["late"], "%.2f×" % ratio if ratio == ratio else "—"))
    lines += ["", "| contender | prefix-cache hit rate | busiest server / mean (requests) |", "|---|---|---|"]
    for c in stages:
        hit, balance = server_figures(run, c)
        lines.append("| %s | %.1f %% | %.2f |" % (c, 100 * hit, balance))
    write(run, lines)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (latency, cdf) = plt.subplots(1, 2, figsize=(11, 4))
    for c, per in stages.items():
        latency.plot([s["offered"] for s in per], [s["p90"] for s in per], marker="o", label=c)
        ttft = sorted(per[-1]["ttft"])
        cdf.plot(ttft, [(i + 1) / per[-1]["n"] for i in range(len(ttft))], label=c)
    latency.set_yscale("log")
    latency.set_xlabel("offered requests/s (stage)")
    latency.set_ylabel("TTFT p90 of the stage's requests (ms)")
    cdf.set_xscale("log")
    cdf.set_xlabel("TTFT (ms), last stage")
    cdf.set_ylabel("fraction of the stage's requests")
    for ax in (latency, cdf):
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "routing.png"), dpi=110)


def summary_window(reqs, start, width):
    """summary() of the requests that arrived in [start, start + width), their offered rate and output tokens/s."""
    inside = [r for r in reqs if r["t"] is not None and start <= r["t"] < start + width]
    s = summary(inside)
    s["offered"] = len(inside) / width
    s["tokens"] = sum(r.get("tokens") or 0 for r in inside if r["status"] == 200) / width
    return s


def write(run, lines):
    capacity_file = os.path.join(run, "capacity.txt")
    if os.path.exists(capacity_file):
        lines = ["capacity: %s requests/s" % open(capacity_file).read().strip(), ""] + lines
    table = "\n".join(lines)
    open(os.path.join(run, "report.md"), "w").write(table + "\n")
    print(table)


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] not in ("overload", "ramp", "ladder"):
        sys.exit(__doc__)
    if sys.argv[2] == "ladder":
        ladder(sys.argv[1], float(sys.argv[3]), sys.argv[4:])
    else:
        (overload if sys.argv[2] == "overload" else ramp)(sys.argv[1], sys.argv[3:])
