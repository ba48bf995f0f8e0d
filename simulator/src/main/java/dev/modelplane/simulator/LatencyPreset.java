package dev.modelplane.simulator;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The peer latency profiles of the original presets: llm-d-inference-sim's per-request figures, used only by the
 * {@code per-token} and {@code constant} calculators (when a preset is combined with per-request latency flags or
 * those calculators are asked for). The step calculator prices presets from {@code physics.ModelCatalog} instead.
 * Values and their sources are in docs/simulator.md; flags given explicitly override a field one by one.
 *
 * @param description one line for {@code --help}
 * @param ttft the constant time to first token for a 256-token prompt (used by the {@code constant} calculator)
 * @param prefillOverhead fixed cost of a prefill forward pass
 * @param prefillPerToken cost per uncached prompt token
 * @param interTokenLatency decode step time with one running sequence
 * @param itlStdDev jitter of the decode step
 * @param timeFactorUnderLoad decode/prefill slowdown when {@code max-num-seqs} sequences run
 * @param maxNumSeqs vLLM's default batch limit
 * @param kvBlocks KV cache blocks of 16 tokens left after weights at 90 % GPU memory utilisation
 */
public record LatencyPreset(String name, String description, Duration ttft, Duration prefillOverhead,
    Duration prefillPerToken, Duration interTokenLatency, Duration itlStdDev, double timeFactorUnderLoad,
    int maxNumSeqs, int kvBlocks) {

  private static final LatencyPreset[] ALL = {
      new LatencyPreset("llama-3.1-8b-h100", "Llama-3.1-8B, BF16, one H100 80GB",
          ms(100), ms(30), us(250), ms(12), ms(2), 2.0, 256, 28_200),
      new LatencyPreset("llama-3.1-70b-h100-tp4", "Llama-3.1-70B, BF16, 4x H100 80GB (TP=4)",
          ms(300), ms(90), us(750), ms(30), ms(4), 2.5, 256, 30_500),
      new LatencyPreset("llama-3.1-70b-h100-tp8", "Llama-3.1-70B, BF16, 8x H100 80GB (TP=8)",
          ms(200), ms(80), us(500), ms(25), ms(4), 3.0, 256, 87_900),
      new LatencyPreset("small-3b-l40s", "Llama-3.2-3B class, BF16, one L40S 48GB",
          ms(110), ms(20), us(350), ms(15), ms(2), 1.5, 256, 19_300),
  };

  private static Duration ms(long v) {
    return Duration.ofMillis(v);
  }

  private static Duration us(long v) {
    return Duration.ofNanos(v * 1000);
  }

  /** Every preset, in a stable order. */
  public static LatencyPreset[] all() {
    return ALL.clone();
  }

  /** Looks a preset up by name (case-insensitive). */
  public static LatencyPreset byName(String name) {
    for (LatencyPreset p : ALL) {
      if (p.name.equalsIgnoreCase(name.trim())) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown preset \"" + name + "\"; known: " + names());
  }

  /** Names joined by ", ". */
  public static String names() {
    return Arrays.stream(ALL).map(LatencyPreset::name).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return name.toLowerCase(Locale.ROOT);
  }
}
