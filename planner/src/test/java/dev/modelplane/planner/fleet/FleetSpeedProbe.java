package dev.modelplane.planner.fleet;

/** Measures one hour of 16 replicas at 50 req/s (a benchmark, run by hand). */
public final class FleetSpeedProbe {
  public static void main(String[] a) {
    for (RouterProfile p : java.util.Arrays.stream(a).skip(1).map(RouterProfile::of).toList()) {
      FleetResult r = FleetSimulation.run(new FleetConfig(FleetSimulationTest.H100_8B, 16, p),
          PoissonWorkload.of(50, Integer.parseInt(a[0]), 1000, 200).withPrefixes(32, 512), 1);
      System.out.println(p + " " + r);
    }
  }
}
