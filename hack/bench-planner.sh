#!/usr/bin/env bash
# Speed of the planner's fleet simulation against real time: one simulated hour (by default) of 16 Llama-3.1-8B
# replicas on H100s at 50 requests/s, once per router profile, in one JVM on this machine. Prints a Markdown table
# (simulated time, wall time, speed-up, virtual-time events, and the run's own TTFT/ITL figures).
#   hack/bench-planner.sh [simulated seconds] [replicas] [requests/s] [profile...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java="$("$root/hack/find-jdk")/bin/java"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/hack/mvn" -q -pl planner -am test-compile dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$work/cp" >&2
cp="$root/planner/target/test-classes:$root/planner/target/classes:$(cat "$work/cp")"
exec "$java" -XX:+UseParallelGC -Xmx2g -cp "$cp" dev.modelplane.planner.fleet.FleetSpeedBenchmark "$@"
