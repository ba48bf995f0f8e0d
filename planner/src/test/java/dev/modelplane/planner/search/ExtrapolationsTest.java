package dev.modelplane.planner.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.simulator.physics.ModelCatalog;
import org.junit.jupiter.api.Test;

class ExtrapolationsTest {
  static final RouterProfile P = RouterProfile.DEFAULT;

  @Test
  void theMeasuredSetupNeedsNoNote() {
    assertThat(Extrapolations.of(new Candidate("h100", 1, 4, P), ModelCatalog.geometry("llama-3.1-8b"))).isEmpty();
  }

  @Test
  void eachExtrapolationHasItsNote() {
    assertThat(Extrapolations.of(new Candidate("a100", 1, 4, P), ModelCatalog.geometry("llama-3.1-8b")))
        .containsExactly("The a100 is not measured (only the H100 is): its figures are scaled from its datasheet "
            + "memory bandwidth and FLOPs.");
    assertThat(Extrapolations.of(new Candidate("h100", 2, 4, P), ModelCatalog.geometry("llama-3.1-8b")))
        .containsExactly("Tensor parallelism 2 is not measured: its all-reduce costs are assumptions from the GPU's "
            + "datasheet link bandwidth.");
    assertThat(Extrapolations.of(new Candidate("h100", 1, 4, P), ModelCatalog.geometry("llama-3.1-70b")))
        .containsExactly("llama-3.1-70b is not the calibration model (Llama-3.1-8B): its step times are priced from "
            + "its geometry.");
    assertThat(Extrapolations.of(new Candidate("l40s", 4, 1, P), ModelCatalog.geometry("llama-3.1-70b"))).hasSize(3);
  }
}
