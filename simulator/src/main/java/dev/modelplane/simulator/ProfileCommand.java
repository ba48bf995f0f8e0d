package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.simulator.physics.StepCostModel;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane simulator profile}: what the engine-step model predicts for a model on a GPU — one prompt's
 * prefill, decode steps over a grid of batch sizes and context lengths, and the KV capacity — so the predictions can
 * be checked against a GPU.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
    description = "Prints the engine-step model's predictions for a model on a GPU: prefill of one prompt of T "
        + "tokens, one decode step of B sequences with C tokens of context each, and the KV cache's blocks.")
public final class ProfileCommand implements Callable<Integer> {
  /** Prompt lengths of the prefill table. */
  public static final List<Integer> PREFILL_TOKENS = List.of(128, 256, 512, 1024, 2048, 4096, 8192);
  /** Batch sizes of the decode table. */
  public static final List<Integer> DECODE_BATCH = List.of(1, 4, 16, 32, 64, 128, 256);
  /** Context lengths of the decode table. */
  public static final List<Integer> DECODE_CONTEXT = List.of(512, 2048, 8192);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Mixin
  HardwareOptions hardware = new HardwareOptions();

  @Option(names = {"-o", "--output"}, description = "table | json (default ${DEFAULT-VALUE}).")
  String output = "table";

  @Option(names = VllmFlags.BLOCK_SIZE, description = "Tokens per KV block (default ${DEFAULT-VALUE}).")
  int blockSize = 16;

  @Option(names = VllmFlags.MAX_NUM_BATCHED_TOKENS, description = "Step token budget the activation reserve is sized "
      + "for (default: vLLM's for the GPU).")
  Integer maxNumBatchedTokens;

  @Option(names = VllmFlags.MAX_NUM_SEQS,
      description = "Sequences the logits reserve is sized for (default: vLLM's for the GPU).")
  Integer maxNumSeqs;

  @Spec
  CommandSpec spec;

  /**
   * The predictions.
   *
   * @param prefillMillis prompt length → milliseconds
   * @param decodeMillis "BxC" → milliseconds
   * @param memory the start-up memory arithmetic
   */
  public record Profile(Map<String, Double> prefillMillis, Map<String, Double> decodeMillis,
      StepCostModel.Memory memory) {

    /** {@code {"prefill_ms": {...}, "decode_ms": {...}, "kv_blocks": N}}. */
    public String json() {
      ObjectNode root = JSON.createObjectNode();
      ObjectNode prefill = root.putObject("prefill_ms");
      prefillMillis.forEach(prefill::put);
      ObjectNode decode = root.putObject("decode_ms");
      decodeMillis.forEach(decode::put);
      root.put("kv_blocks", memory.kvBlocks());
      try {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The predictions of {@code model} with vLLM's start-up memory arithmetic at the given settings. */
  public static Profile profile(StepCostModel model, double utilization, int blockSize, int maxNumBatchedTokens,
      int maxNumSeqs) {
    Map<String, Double> prefill = new LinkedHashMap<>();
    for (int t : PREFILL_TOKENS) {
      prefill.put(Integer.toString(t), round(model.prefillMillis(t)));
    }
    Map<String, Double> decode = new LinkedHashMap<>();
    for (int c : DECODE_CONTEXT) {
      for (int b : DECODE_BATCH) {
        decode.put(b + "x" + c, round(model.decodeMillis(b, c)));
      }
    }
    return new Profile(prefill, decode, model.memory(utilization, blockSize, maxNumBatchedTokens, maxNumSeqs));
  }

  private static double round(double ms) {
    return Math.round(ms * 1000) / 1000.0;
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    List<String> problems = new java.util.ArrayList<>(hardware.problems());
    if (!hardware.chosen() && problems.isEmpty()) {
      problems.add("name the model: --preset NAME or --model-config FILE");
    }
    if (!List.of("json", "table").contains(output)) {
      problems.add("-o must be json or table, got \"" + output + "\"");
    }
    if (!List.of(8, 16, 32, 64, 128).contains(blockSize)) {
      problems.add("--block-size must be one of 8, 16, 32, 64, 128");
    }
    Profile p = null;
    StepCostModel model = null;
    if (problems.isEmpty()) {
      model = hardware.costModel();
      int tokens = maxNumBatchedTokens != null ? maxNumBatchedTokens : model.gpu().defaultMaxNumBatchedTokens();
      int seqs = maxNumSeqs != null ? maxNumSeqs : model.gpu().defaultMaxNumSeqs();
      try {
        p = profile(model, hardware.gpuMemoryUtilization, blockSize, tokens, seqs);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      problems.forEach(m -> err.println("simulator profile: " + m));
      return 2;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("json".equals(output) ? p.json() : table(model, p));
    out.flush();
    return 0;
  }

  static String table(StepCostModel m, Profile p) {
    StringBuilder sb = new StringBuilder();
    var g = m.geometry();
    double gib = 1L << 30;
    sb.append(String.format(Locale.ROOT, "%s on %s%s: %s weights, %s KV cache, %,.2f B parameters%s%n", g.name(),
        m.gpu().name(), m.tensorParallel() > 1 ? " x" + m.tensorParallel() + " (tensor parallel)" : "",
        g.weights().name().toLowerCase(Locale.ROOT), m.kvPrecision().name().toLowerCase(Locale.ROOT),
        g.totalParams() / 1e9, g.moe() == null ? "" : String.format(Locale.ROOT, " (%,.2f B active)",
            g.activeParams() / 1e9)));
    StepCostModel.Memory mem = p.memory();
    sb.append(String.format(Locale.ROOT, "memory per GPU: weights %.2f GiB, activations %.2f GiB, KV cache %.2f GiB"
        + " = %,d tokens = %,d blocks%n%n", mem.weightBytes() / gib, mem.reservedBytes() / gib, mem.kvBytes() / gib,
        mem.kvTokens(), mem.kvBlocks()));
    sb.append("prefill of one prompt (ms)\n");
    sb.append(String.format(Locale.ROOT, "%-8s", "tokens"));
    p.prefillMillis().keySet().forEach(k -> sb.append(String.format(Locale.ROOT, "%10s", k)));
    sb.append(String.format(Locale.ROOT, "%n%-8s", "ms"));
    p.prefillMillis().values().forEach(v -> sb.append(String.format(Locale.ROOT, "%10.2f", v)));
    sb.append("\n\ndecode step of B sequences with C tokens of context each (ms)\n");
    sb.append(String.format(Locale.ROOT, "%-8s", "B \\ C"));
    DECODE_CONTEXT.forEach(c -> sb.append(String.format(Locale.ROOT, "%10d", c)));
    for (int b : DECODE_BATCH) {
      sb.append(String.format(Locale.ROOT, "%n%-8d", b));
      for (int c : DECODE_CONTEXT) {
        sb.append(String.format(Locale.ROOT, "%10.2f", p.decodeMillis().get(b + "x" + c)));
      }
    }
    return sb.toString();
  }
}
