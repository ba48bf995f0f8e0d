package dev.modelplane.simulator;

import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.tokenizer.TokenizerException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks of a {@link SimulatorConfig} once its flags are parsed: ranges, combinations of the model, hardware and
 * latency flags, and whether the chosen model fits its GPU. Kept apart from the configuration, whose own code is its
 * flags and the effective values derived from them.
 */
final class SimulatorConfigCheck {
  private SimulatorConfigCheck() {
  }

  /** The problems of {@code c} (empty when valid); takes the model from {@code $SIM_MODEL} when none was given. */
  static List<String> problems(SimulatorConfig c) {
    List<String> p = new ArrayList<>();
    if (c.model == null || c.model.isBlank()) {
      String env = System.getenv("SIM_MODEL");
      if (env != null && !env.isBlank()) {
        c.model = env;
      } else {
        p.add("--model is required");
      }
    }
    int before = p.size();
    List<String> hw = c.hardware.problems();
    p.addAll(hw);
    String calculator = c.effectiveCalculator();
    if (!List.of("step", "constant", "per-token").contains(calculator)) {
      p.add("--latency-calculator must be step, constant or per-token, got \"" + c.latencyCalculator + "\"");
    } else if ("step".equals(calculator) && !c.hardware.chosen()) {
      p.add("--latency-calculator step needs the model and hardware: --preset or --model-config");
    } else if (!"step".equals(calculator) && c.hardware.chosen() && hw.isEmpty()) {
      if (c.hardware.presetName() == null) {
        p.add("--model-config is priced by the step calculator only; drop --latency-calculator " + calculator
            + " or the per-request latency flags");
      } else {
        presetOrNullSafe(c, p);
      }
    }
    if (p.size() == before && c.stepModel()) {
      try {
        c.memory(c.hardware.costModel());
      } catch (IllegalArgumentException e) {
        p.add(e.getMessage());
      }
    }
    if (p.size() > before) {
      // The effective batch and cache sizes below depend on a c.model that is not there.
      return p;
    }
    if (!List.of("echo", "random").contains(c.mode)) {
      p.add("--mode must be echo or random, got \"" + c.mode + "\"");
    }
    if (c.timeFactorUnderLoad != null && c.timeFactorUnderLoad < 1.0) {
      p.add("--time-factor-under-load must be >= 1.0");
    }
    if (c.maxNumSeqs() < 1) {
      p.add("--max-num-seqs must be >= 1");
    }
    if (c.maxWaitingQueueLength < 0) {
      p.add("--max-waiting-queue-length must be >= 0");
    }
    if (!List.of(8, 16, 32, 64, 128).contains(c.blockSize)) {
      p.add("--block-size must be one of 8, 16, 32, 64, 128");
    }
    if (!"sha256_cbor".equals(c.prefixCachingHashAlgo)) {
      p.add("--prefix-caching-hash-algo " + c.prefixCachingHashAlgo + " is not simulated: only sha256_cbor can be "
          + "computed outside vLLM (sha256 and xxhash hash a Python pickle)");
    }
    if (c.kvEventsConfig != null) {
      try {
        KvEventsConfig events = KvEventsConfig.parse(c.kvEventsConfig);
        if (events.publishes() && !c.enableKvcache) {
          p.add("--kv-events-config: KV-cache events need prefix caching; drop --enable-kvcache=false");
        }
      } catch (IllegalArgumentException e) {
        p.add(e.getMessage());
      }
    }
    if (c.kvCacheSize() < 1) {
      p.add("--kv-cache-size must be >= 1");
    }
    if (c.maxModelLen() < 1) {
      p.add("--max-model-len must be >= 1");
    }
    if (c.maxNumBatchedTokens() < 1) {
      p.add("--max-num-batched-tokens must be >= 1");
    }
    if (c.failureInjectionRate < 0 || c.failureInjectionRate > 100) {
      p.add("--failure-injection-rate must be within 0-100");
    }
    for (String t : c.failureTypes) {
      if (FailureInjector.Kind.byName(t) == null) {
        p.add("--failure-types: unknown type \"" + t + "\"");
      }
    }
    if (c.dataParallelSize < 1 || c.dataParallelSize > 8) {
      p.add("--data-parallel-size must be within 1-8");
    }
    if (c.maxLoras < 1 || c.maxCpuLoras() < c.maxLoras) {
      p.add("--max-loras must be >= 1 and --max-cpu-loras >= --max-loras");
    }
    if (c.prefillInterference < 0 || c.prefillInterference > 1) {
      p.add("--prefill-interference must be within 0-1");
    }
    if (!(c.timeScale > 0)) {
      p.add("--time-scale must be > 0");
    }
    if (c.port < 0 || c.port + c.dataParallelSize - 1 > 65535) {
      p.add("--port out of range");
    }
    if (c.tokenizer != null) {
      try {
        c.tokenizer();
      } catch (TokenizerException e) {
        p.add("--tokenizer: " + e.getMessage());
      }
    }
    for (Duration d : new Duration[] {c.timeToFirstToken, c.timeToFirstTokenStdDev, c.prefillOverhead,
        c.prefillTimePerToken, c.prefillTimeStdDev, c.interTokenLatency, c.interTokenLatencyStdDev, c.startupDuration,
        c.loraLoadTime}) {
      if (d != null && d.isNegative()) {
        p.add("durations must not be negative");
        break;
      }
    }
    return p;
  }

  private static boolean presetOrNullSafe(SimulatorConfig c, List<String> p) {
    try {
      c.presetOrNull();
      return true;
    } catch (IllegalArgumentException e) {
      p.add("--preset " + c.hardware.presetName() + " has no per-request latency profile (the step calculator "
          + "prices it); per-request profiles: " + LatencyPreset.names());
      return false;
    }
  }
}
