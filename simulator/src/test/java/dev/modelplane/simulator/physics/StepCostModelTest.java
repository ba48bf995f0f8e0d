package dev.modelplane.simulator.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The physics the engine-step cost model must keep for every shape (the fit to the measured H100 table is checked on
 * {@code simulator profile}'s output, in ProfileCommandTest).
 */
class StepCostModelTest {
  static StepCostModel model(String geometry, String gpu, int tp) {
    return new StepCostModel(ModelCatalog.geometry(geometry), Gpu.byName(gpu), tp, null, Calibration.H100);
  }

  @Test
  void kvCapacityOfLlama8bOnH100IsTheMemoryArithmetic() {
    StepCostModel.Memory mem = model("llama-3.1-8b", "h100", 1).memory(0.9, 16, 8192, 1024);
    // 0.9 x 79.6 GiB - 14.96 GiB of weights - ~3 GiB of activations = ~53.7 GiB / 128 KiB per token.
    assertThat(mem.weightBytes() / (1L << 30)).isBetween(14.9, 15.0);
    assertThat(mem.kvTokens()).isBetween(420_000L, 460_000L);
    assertThat(mem.kvBlocks()).isEqualTo((int) (mem.kvTokens() / 16));
  }

  @Test
  void decodeCostsFollowKvBytesNotJustTheBatch() {
    StepCostModel m = model("llama-3.1-8b", "h100", 1);
    // 256 sequences: 8,192 tokens of context cost ~8x a 512-token context (measured 126.9 vs 15.9 ms).
    assertThat(m.decodeMillis(256, 8192) / m.decodeMillis(256, 512)).isBetween(7.0, 9.0);
    // A prefix-cache hit skips its projections, not its attention reads.
    double full = m.stepNanos(new StepBatch().prefill(2048, 0));
    double hit = m.stepNanos(new StepBatch().prefill(64, 1984));
    assertThat(hit).isLessThan(full / 4).isGreaterThan(m.stepNanos(new StepBatch().prefill(64, 0)));
  }

  @Test
  void aMixedStepCostsMoreThanItsDecodesAlone() {
    StepCostModel m = model("llama-3.1-8b", "h100", 1);
    StepBatch decodes = new StepBatch();
    for (int i = 0; i < 64; i++) {
      decodes.decode(1024);
    }
    double alone = m.stepNanos(decodes);
    decodes.prefill(2048, 0);
    assertThat(m.stepNanos(decodes)).isGreaterThan(alone + m.stepNanos(new StepBatch().prefill(2048, 0)) * 0.7);
    assertThat(m.stepNanos(new StepBatch())).isZero();
  }

  @Test
  void smallerModelsAreFasterAndFixedCostsDominateThem() {
    StepCostModel small = model("llama-3.2-1b", "h100", 1);
    StepCostModel big = model("llama-3.1-8b", "h100", 1);
    assertThat(small.decodeMillis(1, 512)).isLessThan(big.decodeMillis(1, 512) / 2.5);
    // 16 layers of fixed cost are a third or more of a 1B model's decode step.
    assertThat(16 * Calibration.H100.layerGraphNanos() / 1e6 / small.decodeMillis(1, 512)).isGreaterThan(0.3);
    assertThat(small.prefillMillis(8192)).isLessThan(big.prefillMillis(8192) / 4);
  }

  @Test
  void tensorParallelismSplitsTheWorkAndAddsAllReduces() {
    StepCostModel tp4 = model("llama-3.1-70b", "h100", 4);
    StepCostModel tp8 = model("llama-3.1-70b", "h100", 8);
    assertThat(tp8.decodeMillis(1, 2048)).isLessThan(tp4.decodeMillis(1, 2048));
    // Not a perfect halving: fixed costs and all-reduces do not shrink.
    assertThat(tp8.decodeMillis(1, 2048)).isGreaterThan(tp4.decodeMillis(1, 2048) / 2);
    // 70B on 4 GPUs reads ~35 GB per GPU per step at B=1: between the 8B step and 70B / 1 GPU's.
    assertThat(tp4.decodeMillis(1, 512)).isBetween(12.0, 25.0);
    // 8 KV heads over 8 GPUs: one head each; over 4: two each, so a TP=8 GPU holds twice the tokens per byte.
    assertThat(tp4.kvBytesPerToken()).isEqualTo(2 * tp8.kvBytesPerToken());
    assertThat(tp8.memory(0.9, 16, 8192, 1024).kvTokens())
        .isGreaterThan(2 * tp4.memory(0.9, 16, 8192, 1024).kvTokens());
  }

  @Test
  void moeDecodeStreamsOnlyTheExpertsItsTokensUse() {
    StepCostModel moe = model("qwen3-30b-a3b", "h100", 1);
    StepCostModel dense8b = model("llama-3.1-8b", "h100", 1);
    ModelGeometry g = moe.geometry();
    assertThat(g.totalParams() / 1e9).isBetween(29.5, 31.5);
    assertThat(g.activeParams() / 1e9).isBetween(3.0, 3.6);
    // One sequence touches 8 of 128 experts per layer: far cheaper than its 30B of weights, dearer than 3B dense.
    assertThat(moe.decodeMillis(1, 512)).isLessThan(dense8b.decodeMillis(1, 512));
    // A large batch touches every expert: the step approaches streaming all 61 GB.
    assertThat(moe.decodeMillis(256, 512)).isGreaterThan(3 * moe.decodeMillis(1, 512));
    StepCostModel mixtral = model("mixtral-8x7b", "h100", 2);
    assertThat(mixtral.geometry().totalParams() / 1e9).isBetween(46.0, 47.5);
    assertThat(mixtral.geometry().activeParams() / 1e9).isBetween(12.5, 13.2);
  }

  @Test
  void fp8WeightsAndKvHalveWhatIsStreamedAndStored() {
    ModelGeometry bf16 = ModelCatalog.geometry("llama-3.1-8b");
    ModelGeometry fp8 = new ModelGeometry("llama-3.1-8b-fp8", bf16.hidden(), bf16.intermediate(), bf16.layers(),
        bf16.heads(), bf16.kvHeads(), bf16.headDim(), bf16.vocab(), false, bf16.maxPositions(),
        ModelGeometry.Precision.FP8, null, null);
    StepCostModel a = new StepCostModel(bf16, Gpu.H100, 1, null, Calibration.H100);
    StepCostModel b = new StepCostModel(fp8, Gpu.H100, 1, ModelGeometry.Precision.FP8, Calibration.H100);
    assertThat(b.decodeMillis(1, 512)).isLessThan(a.decodeMillis(1, 512) * 0.65);
    assertThat(b.prefillMillis(8192)).isLessThan(a.prefillMillis(8192) * 0.75);
    assertThat(b.kvBytesPerToken()).isEqualTo(a.kvBytesPerToken() / 2);
  }

  @Test
  void slowerGpusAreSlowerAndSmallerOnesHoldLess() {
    StepCostModel h100 = model("llama-3.1-8b", "h100", 1);
    StepCostModel l40s = model("llama-3.1-8b", "l40s", 1);
    StepCostModel h200 = model("llama-3.1-8b", "h200", 1);
    assertThat(l40s.decodeMillis(1, 512)).isGreaterThan(2.5 * h100.decodeMillis(1, 512));
    assertThat(h200.decodeMillis(64, 8192)).isLessThan(h100.decodeMillis(64, 8192));
    assertThat(l40s.memory(0.9, 16, 2048, 256).kvTokens())
        .isLessThan(h100.memory(0.9, 16, 8192, 1024).kvTokens() / 2);
  }

  @Test
  void aModelThatDoesNotFitIsAClearError() {
    assertThatThrownBy(() -> model("llama-3.1-70b", "h100", 1).memory(0.9, 16, 8192, 1024))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("llama-3.1-70b does not fit on h100")
        .hasMessageContaining("--tensor-parallel-size");
    assertThatThrownBy(() -> model("qwen2.5-7b", "h100", 8))
        .hasMessageContaining("28 attention heads are not divisible by tensor-parallel size 8");
  }

  @Test
  void vllmBatchDefaultsFollowTheGpuClass() {
    assertThat(Gpu.H100.defaultMaxNumBatchedTokens()).isEqualTo(8192);
    assertThat(Gpu.H100.defaultMaxNumSeqs()).isEqualTo(1024);
    assertThat(Gpu.byName("h200").defaultMaxNumBatchedTokens()).isEqualTo(8192);
    assertThat(Gpu.byName("a100").defaultMaxNumBatchedTokens()).isEqualTo(2048);
    assertThat(Gpu.byName("l40s").defaultMaxNumSeqs()).isEqualTo(256);
    assertThat(Gpu.byProduct("NVIDIA-H100-80GB-HBM3")).isEqualTo(Gpu.H100);
    assertThat(Gpu.byProduct("NVIDIA-L4")).isEqualTo(Gpu.byName("l4"));
    assertThat(Gpu.byProduct("NVIDIA-L40S")).isEqualTo(Gpu.byName("l40s"));
    assertThat(Gpu.byProduct("Tesla-T4")).isNull();
    assertThatThrownBy(() -> Gpu.byName("tpu")).hasMessage("unknown GPU \"tpu\"; known: h100, h200, a100, l40s, l4");
  }
}
