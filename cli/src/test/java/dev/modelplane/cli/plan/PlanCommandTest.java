package dev.modelplane.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.cli.Main;
import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.LatencySummary;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.planner.search.Evaluator;
import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PlanCommandTest {
  /** A workload that only has a rate; the fake evaluator never reads its requests. */
  record RateOnly(double rate, String describe) implements Workload {
    @Override
    public Iterator<PlannedRequest> requests() {
      return List.<PlannedRequest>of().iterator();
    }

    @Override
    public Workload atRate(double requestsPerSecond) {
      return new RateOnly(requestsPerSecond, describe);
    }

    @Override
    public Set<String> adapters() {
      return Set.of();
    }
  }

  /** Records the factory calls and answers with {@link RateOnly}. */
  static final class RecordingSource implements WorkloadSource {
    final List<String> calls = new ArrayList<>();

    @Override
    public Workload poisson(double rate, int promptTokens, int outputTokens, Duration duration, long seed) {
      calls.add("poisson " + rate + " " + promptTokens + " " + outputTokens + " " + duration + " " + seed);
      return new RateOnly(rate, "poisson at " + rate + " req/s");
    }

    @Override
    public Workload file(Path file, Double rate, Duration duration, long seed) {
      calls.add("file " + file + " " + rate + " " + duration);
      return new RateOnly(rate == null ? 4 : rate, "file");
    }

    @Override
    public Workload replay(Path file, Double rate, Duration duration, long seed) {
      calls.add("replay " + file + " " + rate + " " + duration);
      return new RateOnly(rate == null ? 4 : rate, "replay");
    }
  }

  /** TTFT p90 of 0.2 s × rate / (replicas × tensor-parallel size): ttft-p90=200ms needs rate GPUs. */
  static final Evaluator PER_GPU = (Candidate c, Workload w) -> {
    double ttft = 0.2 * w.rate() / c.gpus();
    return new FleetResult(new LatencySummary(ttft / 2, ttft, ttft * 2, ttft), new LatencySummary(0.01, 0.02, 0.03,
        0.01), new LatencySummary(2, 3, 4, 2), w.rate(), w.rate(), w.rate() * 100, w.rate() * 1000, 100, 0, 0, 60,
        0.5);
  };

  record Result(int code, String out, String err, PlanCommand command) {
  }

  static Result run(Evaluator evaluator, RecordingSource source, String... args) {
    CommandLine cli = Main.commandLine();
    PlanCommand command = cli.getSubcommands().get("plan").getCommand();
    command.evaluator = evaluator;
    command.workloads = source;
    command.terminal = false;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(Stream.concat(Stream.of("plan"), Stream.of(args)).toArray(String[]::new));
    return new Result(code, out.toString(), err.toString(), command);
  }

  static Result run(String... args) {
    return run(PER_GPU, new RecordingSource(), args);
  }

  static void failsWith(String error, String... args) {
    Result r = run(args);
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: " + error + "\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void parsesEveryFlag() {
    CommandLine cli = Main.commandLine();
    PlanCommand c = cli.getSubcommands().get("plan").getCommand();
    cli.parseArgs("plan", "--model-config", "llama-3.1-8b", "--gpu", "h100", "--gpu", "a100",
        "--tensor-parallel-size", "1", "--tensor-parallel-size", "2", "--router-profile", "precise", "--rate", "5",
        "--prompt-tokens", "100", "--output-tokens", "50", "--duration", "30s", "--seed", "7", "--slo",
        "ttft-p90=500ms", "--slo", "itl-p50=20ms", "--price", "h100=2.5", "--max-replicas", "8", "--top", "2", "-o",
        "json", "--plot", "p.svg", "--emit", "m.yaml", "-v");
    assertThat(c.modelConfig).isEqualTo("llama-3.1-8b");
    assertThat(c.gpus).containsExactly("h100", "a100");
    assertThat(c.tensorParallelSizes).containsExactly(1, 2);
    assertThat(c.profiles).containsExactly("precise");
    assertThat(c.rate).isEqualTo(5.0);
    assertThat(c.promptTokens).isEqualTo(100);
    assertThat(c.duration).isEqualTo("30s");
    assertThat(c.seed).isEqualTo(7);
    assertThat(c.slos).containsExactly("ttft-p90=500ms", "itl-p50=20ms");
    assertThat(c.prices).containsExactly("h100=2.5");
    assertThat(c.maxReplicas).isEqualTo(8);
    assertThat(c.top).isEqualTo(2);
    assertThat(c.output).isEqualTo("json");
    assertThat(c.plot).isEqualTo(Path.of("p.svg"));
    assertThat(c.emit).isEqualTo(Path.of("m.yaml"));
    assertThat(c.verbose).isTrue();
  }

  @Test
  void theDefaults() {
    RecordingSource source = new RecordingSource();
    Result r = run(PER_GPU, source, "--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(source.calls).containsExactly("poisson 4.0 1024 256 PT1M 1");
    assertThat(r.command().maxReplicas).isEqualTo(64);
    assertThat(r.command().top).isEqualTo(10);
    assertThat(r.err()).isEmpty();
  }

  @Test
  void invalidCombinationsFailWithOneLine() {
    String slo = "--slo";
    failsWith("plan: give the model with --model-config FILE|NAME, --preset NAME or -f MANIFEST", "--rate", "1",
        slo, "ttft-p90=1s");
    failsWith("plan: --model-config, --preset and -f/--filename each give the model; give only one",
        "--model-config", "llama-3.1-8b", "--preset", "llama-3.1-8b-h100", "--rate", "1", slo, "ttft-p90=1s");
    failsWith("plan: give at least one --slo, e.g. --slo ttft-p90=500ms", "--model-config", "llama-3.1-8b",
        "--rate", "1");
    failsWith("--slo ttft-p95=500ms: percentile must be p50, p90 or p99, got \"p95\"", "--model-config",
        "llama-3.1-8b", "--rate", "1", slo, "ttft-p95=500ms");
    failsWith("--gpu: unknown GPU \"b200\"; known: h100, h200, a100, l40s, l4", "--model-config", "llama-3.1-8b",
        "--gpu", "b200", "--rate", "1", slo, "ttft-p90=1s");
    failsWith("-o/--output must be table or json, got \"yaml\"", "--model-config", "llama-3.1-8b", "--rate", "1",
        slo, "ttft-p90=1s", "-o", "yaml");
    failsWith("--router-profile: unknown router profile \"fast\"; known: default, precise, predictive",
        "--model-config", "llama-3.1-8b", "--rate", "1", slo, "ttft-p90=1s", "--router-profile", "fast");
    failsWith("plan: give the traffic with --rate REQ_PER_S (Poisson), --workload FILE or --replay FILE",
        "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s");
    failsWith("plan: --workload and --replay each give the traffic; give only one", "--model-config",
        "llama-3.1-8b", slo, "ttft-p90=1s", "--workload", "w.yaml", "--replay", "log.jsonl");
    failsWith("plan: --prompt-tokens and --output-tokens shape the Poisson workload; the lengths of --replay come "
        + "from its file", "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s", "--replay", "log.jsonl",
        "--prompt-tokens", "10");
    failsWith("--rate must be a positive number of requests per second, got 0.0", "--model-config", "llama-3.1-8b",
        slo, "ttft-p90=1s", "--rate", "0");
    failsWith("--duration must be positive, got 0s", "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s", "--rate",
        "1", "--duration", "0s");
    failsWith("--plot plot.pdf: the file name must end in .svg or .png", "--model-config", "llama-3.1-8b", slo,
        "ttft-p90=1s", "--rate", "1", "--plot", "plot.pdf");
    failsWith("--price: no price for a100; price every --gpu (e.g. --price a100=2.5) or none", "--model-config",
        "llama-3.1-8b", slo, "ttft-p90=1s", "--rate", "1", "--gpu", "h100", "--gpu", "a100", "--price", "h100=2");
    failsWith("--price h100: expected GPU=USD_PER_HOUR (e.g. h100=2.5)", "--model-config", "llama-3.1-8b", slo,
        "ttft-p90=1s", "--rate", "1", "--price", "h100");
    failsWith("--top must be >= 1, got 0", "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s", "--rate", "1",
        "--top", "0");
    failsWith("--max-replicas must be >= 1, got 0", "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s", "--rate",
        "1", "--max-replicas", "0");
    failsWith("--tensor-parallel-size must be >= 1, got 0", "--model-config", "llama-3.1-8b", slo, "ttft-p90=1s",
        "--rate", "1", "--tensor-parallel-size", "0");
  }

  @Test
  void unknownModelsNameTheFlag() {
    Result r = run("--model-config", "no-such-model", "--rate", "1", "--slo", "ttft-p90=1s");
    assertThat(r.err()).startsWith("error: --model-config: unknown model \"no-such-model\"; built in: ")
        .hasLineCount(1);
    r = run("--preset", "no-such-preset", "--rate", "1", "--slo", "ttft-p90=1s");
    assertThat(r.err()).startsWith("error: --preset: unknown preset \"no-such-preset\"; known: ").hasLineCount(1);
  }

  @Test
  void aManifestThatIsNotThereIsNamed() {
    failsWith("no-such.yaml: cannot read: no such file", "-f", "no-such.yaml", "--rate", "1", "--slo",
        "ttft-p90=1s");
  }

  @Test
  void aReplayMayBeRescaledByRate() {
    RecordingSource source = new RecordingSource();
    Result r = run(PER_GPU, source, "--model-config", "llama-3.1-8b", "--replay", "log.jsonl", "--rate", "8",
        "--duration", "5m", "--slo", "ttft-p90=200ms");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(source.calls).containsExactly("replay log.jsonl 8.0 PT5M");
    source.calls.clear();
    run(PER_GPU, source, "--model-config", "llama-3.1-8b", "--workload", "w.yaml", "--slo", "ttft-p90=200ms");
    assertThat(source.calls).containsExactly("file w.yaml null PT1M");
  }

  @Test
  void printsTheTableBestFirst() {
    Result r = run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms", "--router-profile",
        "default", "--top", "2");
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines.get(0)).startsWith("RANK").contains("TTFT-P90", "OUT-TOK/S").endsWith("SLO");
    // 4 GPUs are needed at 4 req/s: TP=1 x4, TP=2 x2, TP=4 x1 all take 4; TTFT ties, so the order is by TP
    assertThat(lines.get(1).split(" +")).startsWith("1", "h100", "1", "4", "4", "default");
    assertThat(lines.get(2).split(" +")).startsWith("2", "h100", "2", "2", "4", "default");
    assertThat(lines.get(3)).isEmpty();
    assertThat(r.out()).contains("Workload: poisson at 4.0 req/s", "SLOs: ttft-p90=200ms",
        "Tensor parallelism 2 is not measured");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void printsJsonAndKeepsProgressOnStderr() throws Exception {
    Result r = run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms", "-o", "json",
        "--price", "h100=2", "--verbose");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertThat(root.path("plans").get(0).path("gpus").asInt()).isEqualTo(4);
    assertThat(root.path("plans").get(0).path("costPerHour").asDouble()).isEqualTo(8.0);
    assertThat(root.path("slos").get(0).asText()).isEqualTo("ttft-p90=200ms");
    assertThat(root.path("simulation").path("runs").asInt()).isPositive();
    assertThat(r.err()).contains("h100 TP=1 x1 default: TTFT p90 800ms").contains("- meets the SLOs");
  }

  @Test
  void noConfigurationMeetingTheSlosExitsThree() {
    Result r = run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms",
        "--tensor-parallel-size", "1", "--max-replicas", "2");
    assertThat(r.code()).isEqualTo(PlanCommand.NO_PLAN);
    assertThat(r.out()).startsWith("No configuration meets the SLOs.")
        .contains("h100 TP=1 default: even 2 replicas (--max-replicas) miss ttft-p90=200ms (measured 400.0ms)");
  }

  @Test
  void plotsLatencyAgainstLoad(@TempDir Path tmp) throws Exception {
    Path svg = tmp.resolve("plan.svg");
    Result r = run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms", "--router-profile",
        "default", "--plot", svg.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String doc = Files.readString(svg);
    assertThat(doc).startsWith("<?xml").contains("<svg", "Time to first token (p90) vs load",
        "offered load (requests/s)", "data-name=\"h100 TP=1 x4 default\"", "data-name=\"h100 TP=2 x2 default\"");
    assertThat(doc.split("class=\"series\"")).hasSize(1 + PlanCommand.PLOTTED);
    assertThat(Files.readString(tmp.resolve("plan-e2e.svg"))).contains("End-to-end latency (p90) vs load");
    // the sweep's runs count in the totals
    assertThat(r.out()).containsPattern("Simulated \\d+ runs");

    Path png = tmp.resolve("plan.png");
    assertThat(run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms", "--router-profile",
        "default", "--plot", png.toString()).code()).isZero();
    assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void emitWritesAnLlmkubePairForAModelConfig(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("m.yaml");
    Result r = run("--model-config", "llama-3.1-8b", "--rate", "4", "--slo", "ttft-p90=200ms", "--emit",
        out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Files.readString(out)).contains("kind: Model", "kind: InferenceService",
        "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3");
  }

  @Test
  void emitWritesTheBestConfigurationsManifest(@TempDir Path tmp) throws Exception {
    CommandLine cli = Main.commandLine();
    PlanCommand command = cli.getSubcommands().get("plan").getCommand();
    command.evaluator = PER_GPU;
    command.workloads = new RecordingSource();
    command.terminal = false;
    command.manifests = new ManifestIo(p -> PlanModel.fromConfig("llama-3.1-8b"),
        (model, candidate, workload) -> "kind: Fake\nreplicas: " + candidate.replicas() + "\ntp: "
            + candidate.tensorParallelSize() + "\nmodel: " + model.servedModelName() + "\n");
    cli.setOut(new PrintWriter(new StringWriter()));
    Path out = tmp.resolve("m.yaml");
    int code = cli.execute("plan", "-f", "model.yaml", "--rate", "4", "--slo", "ttft-p90=200ms", "--emit",
        out.toString());
    assertThat(code).isZero();
    assertThat(Files.readString(out)).isEqualTo("kind: Fake\nreplicas: 4\ntp: 1\nmodel: llama-3.1-8b\n");
  }
}
