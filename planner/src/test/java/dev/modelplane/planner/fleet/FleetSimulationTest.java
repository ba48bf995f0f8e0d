package dev.modelplane.planner.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FleetSimulationTest {
  static final List<String> H100_8B = List.of("--model", "m", "--model-config", "llama-3.1-8b", "--gpu", "h100",
      "--tensor-parallel-size", "1", "--enable-kvcache");

  @Test
  void smoke() {
    FleetResult r = FleetSimulation.run(new FleetConfig(H100_8B, 2, RouterProfile.DEFAULT),
        PoissonWorkload.of(5, 300, 512, 128).withPrefixes(4, 256), 1);
    System.out.println(r);
    assertThat(r.completed()).isEqualTo(300);
  }
}
