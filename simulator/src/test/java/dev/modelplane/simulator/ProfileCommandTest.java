package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code simulator profile} as a user runs it: the JSON shape, the table, and the errors. */
class ProfileCommandTest {
  record Run(int code, String out, String err) {
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new SimulatorCommand());
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of("profile"));
    all.addAll(List.of(args));
    int code = cl.execute(all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void jsonHasExactlyThePrefillAndDecodeGridsAndTheKvBlocks() throws Exception {
    Run r = run("--preset", "llama-3.1-8b-h100", "-o", "json");
    assertThat(r.code()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    List<String> top = new ArrayList<>();
    json.fieldNames().forEachRemaining(top::add);
    assertThat(top).containsExactly("prefill_ms", "decode_ms", "kv_blocks");
    List<String> prefill = new ArrayList<>();
    json.get("prefill_ms").fieldNames().forEachRemaining(prefill::add);
    assertThat(prefill).containsExactly("128", "256", "512", "1024", "2048", "4096", "8192");
    List<String> decode = new ArrayList<>();
    json.get("decode_ms").fieldNames().forEachRemaining(decode::add);
    assertThat(decode).hasSize(21).contains("1x512", "256x8192", "32x2048");
    assertThat(json.at("/prefill_ms/2048").asDouble()).isBetween(45.0, 60.0);
    assertThat(json.at("/decode_ms/256x8192").asDouble()).isBetween(110.0, 140.0);
    assertThat(json.get("kv_blocks").asInt()).isBetween(26_000, 29_000);
  }

  @Test
  void theJsonMatchesTheMeasuredLlama8bOnH100() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode predicted = json.readTree(run("--preset", "llama-3.1-8b-h100", "-o", "json").out());
    JsonNode measured;
    try (var in = getClass().getResourceAsStream("/gpu/llama-3.1-8b-h100.json")) {
      measured = json.readTree(in);
    }
    List<Double> errors = new ArrayList<>();
    List<String> report = new ArrayList<>();
    for (String[] views : new String[][] {{"prefill_ms", "prefill_kernels_ms"}, {"decode_ms", "decode_graph_ms"}}) {
      measured.get(views[1]).properties().forEach(e -> {
        double p = predicted.get(views[0]).get(e.getKey()).asDouble();
        errors.add(Math.abs(p / e.getValue().asDouble() - 1));
        report.add(views[0] + " " + e.getKey() + ": " + p + " vs " + e.getValue());
      });
    }
    assertThat(errors).hasSize(28);
    java.util.Collections.sort(errors);
    double median = (errors.get(13) + errors.get(14)) / 2;
    double worst = errors.get(errors.size() - 1);
    // The bar is 15 % at the median and 35 % at worst; the calibration does far better, and a change that loses
    // that should be seen.
    assertThat(median).as("median error; %s", report).isLessThan(0.03);
    assertThat(worst).as("worst error; %s", report).isLessThan(0.06);
  }

  @Test
  void aConfigFileOnAnotherGpuWithTensorParallelismPrintsATableForPeople() throws Exception {
    Path config = Path.of(getClass().getResource("/model-configs/qwen3-30b-a3b.json").toURI());
    Run r = run("--model-config", config.toString(), "--gpu", "h200", "--tensor-parallel-size", "2");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("on h200 x2 (tensor parallel): bf16 weights, bf16 KV cache, 30.53 B parameters "
        + "(3.04 B active)").contains("prefill of one prompt (ms)").contains("B \\ C").contains("KV cache");
    Run fp8 = run("--preset", "llama-3.1-8b-h100", "--kv-cache-dtype", "fp8", "-o", "json");
    Run bf16 = run("--preset", "llama-3.1-8b-h100", "-o", "json");
    ObjectMapper json = new ObjectMapper();
    assertThat(json.readTree(fp8.out()).get("kv_blocks").asInt())
        .isGreaterThan(2 * json.readTree(bf16.out()).get("kv_blocks").asInt() - 10);
  }

  @Test
  void badInputGetsOneLineNamingTheProblem() {
    Run none = run();
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).isEqualTo("simulator profile: name the model: --preset NAME or --model-config FILE\n");
    Run unknownGpu = run("--preset", "llama-3.1-8b-h100", "--gpu", "v100");
    assertThat(unknownGpu.err()).contains("unknown GPU \"v100\"; known: h100, h200, a100, l40s, l4");
    Run noFile = run("--model-config", "/nonexistent/config.json");
    assertThat(noFile.err()).contains("--model-config: no such file /nonexistent/config.json");
    Run tooBig = run("--model-config", "llama-3.1-70b", "--gpu", "l4");
    assertThat(tooBig.code()).isEqualTo(2);
    assertThat(tooBig.err()).contains("llama-3.1-70b does not fit on l4");
    Run both = run("--preset", "llama-3.1-8b-h100", "--model-config", "llama-3.1-8b");
    assertThat(both.err()).contains("--preset and --model-config exclude each other");
    Run output = run("--preset", "llama-3.1-8b-h100", "-o", "yaml");
    assertThat(output.err()).contains("-o must be json or table, got \"yaml\"");
  }
}
