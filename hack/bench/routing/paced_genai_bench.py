"""Runs genai-bench with a seeded prompt order and, optionally, open-loop arrivals and extra request headers.

genai-bench draws dataset prompts with Python's unseeded global generator and sends closed-loop (each simulated user
sends its next request as soon as the last one ends). This wrapper seeds the generator, so the prompts come in the
same order in every run, and with --arrivals makes the users follow one shared Poisson arrival schedule instead:
each request waits for the next arrival time of the schedule before it is sent, so the offered load does not depend
on how fast the server answers (as long as --num-concurrency leaves a user free for every arrival; a send more than
0.1 s behind its arrival counts as late). --header adds a header to every request, e.g. the InferenceObjective.
--model-share sends a seeded fraction of the requests to another model name instead, e.g. a LoRA adapter the servers
load on demand.

  --arrivals RATE:SECONDS[,RATE:SECONDS...]   stages of a Poisson process, RATE requests/s for SECONDS each
  --header 'NAME: VALUE'                      repeatable
  --model-share NAME:FRACTION                 repeatable; that fraction of the requests names model NAME
  --start-at UNIX_SECONDS                      start the schedule at this wall-clock time (several processes together)
  --count                                     print how many arrivals the schedule has and exit
  --log FILE                                  one JSON line per request as genai-bench measured it: scheduled second,
                                              lateness, model, status, TTFT, end-to-end latency (seconds),
                                              output tokens

usage: python paced_genai_bench.py SEED [--arrivals ...] [--start-at T] [--header ...] [--model-share ...] [--log FILE]
                                   genai-bench-args...
       python paced_genai_bench.py SEED --arrivals ... --count
"""
import json
import random
import sys
import time


class ArrivalSchedule:
    """Arrival times of a piecewise-constant-rate Poisson process, drawn from a seed; the clock starts at the first
    claim."""

    def __init__(self, stages, seed, start_at=None):
        self.stages = stages
        self.start_at = start_at
        self.rng = random.Random(seed)
        self.origin = None
        self.offset = 0.0
        self.stage = 0
        self.stage_end = stages[0][1] if stages else 0.0
        self.late = 0
        self.sent = 0

    def claim(self):
        """The monotonic time of the next arrival and its offset from the start, or None after the last stage."""
        if self.origin is None:
            now = time.monotonic()
            self.origin = now if self.start_at is None else now + (self.start_at - time.time())
        while self.stage < len(self.stages):
            rate = self.stages[self.stage][0]
            gap = self.rng.expovariate(rate) if rate > 0 else float("inf")
            if self.offset + gap <= self.stage_end:
                self.offset += gap
                return self.origin + self.offset, self.offset
            # Memoryless: the next stage starts its own draw at its boundary.
            self.offset = self.stage_end
            self.stage += 1
            if self.stage < len(self.stages):
                self.stage_end += self.stages[self.stage][1]
        return None


def parse_stages(text):
    try:
        stages = [tuple(float(x) for x in part.split(":", 1)) for part in text.split(",")]
    except ValueError:
        stages = []
    if not stages or any(len(s) != 2 or s[0] < 0 or s[1] <= 0 for s in stages):
        sys.exit("paced_genai_bench: --arrivals needs RATE:SECONDS stages with RATE >= 0 and SECONDS > 0")
    return stages


def install(schedule, headers, log, shares, seed):
    import gevent
    from genai_bench.user.openai_user import OpenAIUser

    original_start, original_chat, original_collect = OpenAIUser.on_start, OpenAIUser.chat, OpenAIUser.collect_metrics
    original_sample = OpenAIUser.sample
    share_rng = random.Random(seed + 2)

    def sample(self):
        request = original_sample(self)
        if shares:
            x, upto = share_rng.random(), 0.0
            for name, fraction in shares:
                upto += fraction
                if x < upto:
                    request.model = name
                    break
        self.model_sent = request.model
        return request

    def on_start(self):
        original_start(self)
        self.headers.update(headers)

    def chat(self):
        self.arrival = None
        if schedule is not None:
            claimed = schedule.claim()
            if claimed is None:
                gevent.sleep(86400)  # the schedule is over; the run ends when its requests have completed
                return
            at, offset = claimed
            wait = at - time.monotonic()
            if wait > 0:
                gevent.sleep(wait)
            lateness = max(0.0, time.monotonic() - at)
            schedule.sent += 1
            schedule.late += lateness > 0.1
            self.arrival = (offset, lateness)
        original_chat(self)

    def collect_metrics(self, response, endpoint):
        if log is not None:
            offset, lateness = getattr(self, "arrival", None) or (None, 0.0)
            first, start, end = response.time_at_first_token, response.start_time, response.end_time
            log.write(json.dumps({
                "t": offset, "late": round(lateness, 4), "model": getattr(self, "model_sent", None),
                "status": response.status_code,
                "ttft": first - start if first is not None and start is not None else None,
                "e2e": end - start if end is not None and start is not None else None,
                "tokens": getattr(response, "tokens_received", None)}) + "\n")
        original_collect(self, response, endpoint)

    OpenAIUser.on_start = on_start
    OpenAIUser.sample = sample
    OpenAIUser.chat = chat  # genai-bench looks the task up by name after this
    OpenAIUser.collect_metrics = collect_metrics


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    seed = int(argv[0])
    rest = argv[1:]
    stages, headers, log_path, start_at, shares = None, {}, None, None, []
    while rest and rest[0] in ("--arrivals", "--header", "--log", "--start-at", "--model-share"):
        if len(rest) < 2:
            sys.exit(__doc__)
        option, value, rest = rest[0], rest[1], rest[2:]
        if option == "--arrivals":
            stages = parse_stages(value)
        elif option == "--log":
            log_path = value
        elif option == "--start-at":
            start_at = float(value)
        elif option == "--model-share":
            name, sep, fraction = value.rpartition(":")
            try:
                fraction = float(fraction)
            except ValueError:
                fraction = -1.0
            if not sep or not name or not 0 < fraction <= 1:
                sys.exit("paced_genai_bench: --model-share needs NAME:FRACTION with 0 < FRACTION <= 1")
            shares.append((name, fraction))
        else:
            name, sep, val = value.partition(":")
            if not sep or not name.strip():
                sys.exit("paced_genai_bench: --header needs 'NAME: VALUE'")
            headers[name.strip()] = val.strip()
    if rest[:1] == ["--count"]:
        if not stages:
            sys.exit("paced_genai_bench: --count needs --arrivals")
        count = ArrivalSchedule(stages, seed + 1)
        count.origin = 0.0
        n = 0
        while count.claim() is not None:
            n += 1
        print(n)
        return 0
    random.seed(seed)
    schedule = ArrivalSchedule(stages, seed + 1, start_at) if stages else None
    log = open(log_path, "w", buffering=1) if log_path else None
    if sum(f for _, f in shares) > 1:
        sys.exit("paced_genai_bench: the --model-share fractions add up to more than 1")
    install(schedule, headers, log, shares, seed)
    sys.argv = ["genai-bench"] + rest
    from genai_bench.cli.cli import cli

    try:
        return cli()
    finally:
        if schedule is not None:
            print(f"paced_genai_bench: {schedule.sent} arrivals sent, {schedule.late} more than 0.1 s late",
                  file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
