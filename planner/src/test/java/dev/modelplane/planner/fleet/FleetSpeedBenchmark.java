package dev.modelplane.planner.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How much faster than real time the fleet simulation runs (hack/bench-planner.sh): a fleet of Llama-3.1-8B replicas
 * on H100s at a Poisson load, prompts of 1,000 tokens (512 of them one of 32 shared prefixes) and outputs of 200,
 * once per router profile; prints a Markdown table. Arguments: simulated seconds, replicas, requests per second,
 * then profiles (default: all).
 */
public final class FleetSpeedBenchmark {
  private FleetSpeedBenchmark() {
  }

  public static void main(String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3600;
    int replicas = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 50;
    List<RouterProfile> profiles = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      profiles.add(RouterProfile.of(args[i]));
    }
    if (profiles.isEmpty()) {
      profiles.addAll(List.of(RouterProfile.values()));
    }
    int count = (int) Math.round(seconds * rate);
    System.out.printf(Locale.ROOT, "%d replicas, Poisson %.0f req/s, %d requests (%.0f s)%n%n", replicas, rate, count,
        seconds);
    System.out.println("| profile | simulated | wall | speed-up | events | TTFT p50 | TTFT p90 | ITL p50 | req/s |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (RouterProfile p : profiles) {
      Fleet fleet = new Fleet(new FleetConfig(FleetSimulationTest.H100_8B, replicas, p),
          PoissonWorkload.of(rate, count, 1000, 200).withPrefixes(32, 512), 1);
      FleetResult r = fleet.run();
      System.out.printf(Locale.ROOT, "| %s | %.0f s | %.1f s | %.0f× | %.1f M | %.1f ms | %.1f ms | %.1f ms | %.1f |%n",
          p.label(), r.simulatedSeconds(), r.wallSeconds(), r.speedUp(), fleet.time.tasksRun() / 1e6,
          r.ttft().p50() * 1e3, r.ttft().p90() * 1e3, r.itl().p50() * 1e3, r.requestsPerSecond());
    }
  }
}
