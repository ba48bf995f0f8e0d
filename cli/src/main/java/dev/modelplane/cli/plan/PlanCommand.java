package dev.modelplane.cli.plan;

import dev.modelplane.cli.user.UserError;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.planner.fleet.FleetConfig;
import dev.modelplane.planner.fleet.FleetSimulation;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.search.Evaluator;
import dev.modelplane.planner.search.LoadSweep;
import dev.modelplane.planner.search.Plan;
import dev.modelplane.planner.search.PlanOutcome;
import dev.modelplane.planner.search.PlanReport;
import dev.modelplane.planner.search.PlanSearch;
import dev.modelplane.planner.search.Prices;
import dev.modelplane.planner.search.SearchSpace;
import dev.modelplane.planner.search.Slo;
import dev.modelplane.planner.workload.Workload;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane plan}: which GPU, tensor parallelism, replica count and router profile meet the SLOs for a model
 * and a workload, found by simulating each configuration in virtual time. Exit codes: 0 a configuration meets the
 * SLOs; 1 an error; 3 none does.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Finds the GPUs, tensor parallelism, replicas and router profile that meet SLOs for a model and a "
        + "workload, by simulating the model servers' engine steps and the router's scheduling in virtual time. "
        + "Prints the configurations that meet the SLOs, best first (cheapest with --price, else fewest GPUs), and "
        + "those that cannot. Exit codes: 0 a configuration meets the SLOs, 1 an error, 3 none does.")
public final class PlanCommand implements Callable<Integer> {
  /** Exit code when no configuration meets the SLOs. */
  static final int NO_PLAN = 3;
  /** Configurations the load sweep of {@code --plot} runs. */
  static final int PLOTTED = 3;

  @Spec
  CommandSpec spec;

  @Option(names = "--model-config", paramLabel = "FILE|NAME",
      description = "The model: a Hugging Face config.json or a built-in geometry's name.")
  String modelConfig;

  @Option(names = "--preset", paramLabel = "NAME", description = "The model (and default GPU) of a simulator preset.")
  String preset;

  @Option(names = {"-f", "--filename"}, paramLabel = "MANIFEST",
      description = "The model (and default GPU) of a serving manifest.")
  Path manifest;

  @Option(names = "--gpu", paramLabel = "NAME",
      description = "A GPU type to consider (repeatable; default: the model input's GPU, else h100).")
  List<String> gpus = new ArrayList<>();

  @Option(names = "--tensor-parallel-size", paramLabel = "N",
      description = "A tensor-parallel size to consider (repeatable; default 1, 2, 4 and 8, those that fit).")
  List<Integer> tensorParallelSizes = new ArrayList<>();

  @Option(names = "--router-profile", paramLabel = "NAME",
      description = "default, precise or predictive (repeatable; default all three).")
  List<String> profiles = new ArrayList<>();

  @Option(names = "--rate", paramLabel = "REQ_PER_S",
      description = "Requests per second: the Poisson arrival rate, or the rate --workload or --replay is scaled to.")
  Double rate;

  @Option(names = "--prompt-tokens", paramLabel = "N",
      description = "Prompt length of the Poisson workload (default 1024).")
  Integer promptTokens;

  @Option(names = "--output-tokens", paramLabel = "N",
      description = "Output length of the Poisson workload (default 256).")
  Integer outputTokens;

  @Option(names = "--workload", paramLabel = "FILE", description = "A workload file (YAML or JSON).")
  Path workloadFile;

  @Option(names = "--replay", paramLabel = "FILE",
      description = "Recorded traffic to replay: a request log (JSON lines) or a genai-bench result.")
  Path replay;

  @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "1m",
      description = "Simulated time per run (default ${DEFAULT-VALUE}); longer is steadier and slower.")
  String duration;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Fixes every random choice.")
  long seed;

  @Option(names = "--slo", paramLabel = "OBJECTIVE", description = "An objective (repeatable, at least one): "
      + "ttft|itl|e2e-p50|p90|p99=DURATION (e.g. ttft-p90=500ms) or tokens-per-second=N.")
  List<String> slos = new ArrayList<>();

  @Option(names = "--price", paramLabel = "GPU=USD_PER_HOUR",
      description = "What a GPU costs per hour (repeatable): plans are then ranked by cost.")
  List<String> prices = new ArrayList<>();

  @Option(names = "--max-replicas", paramLabel = "N", defaultValue = "" + SearchSpace.DEFAULT_MAX_REPLICAS,
      description = "The most replicas a configuration may have (default ${DEFAULT-VALUE}).")
  int maxReplicas;

  @Option(names = "--top", paramLabel = "N", defaultValue = "10",
      description = "How many configurations to show (default ${DEFAULT-VALUE}).")
  int top;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
      description = "table (the default) or json.")
  String output;

  @Option(names = "--plot", paramLabel = "FILE.svg|FILE.png",
      description = "Plots latency against load for the best configurations (FILE and FILE-e2e).")
  Path plot;

  @Option(names = "--emit", paramLabel = "FILE", description = "Writes the best configuration's manifest.")
  Path emit;

  @Option(names = {"-v", "--verbose"}, description = "One line per simulated run on stderr (the default on a "
      + "terminal).")
  boolean verbose;

  /** Predicts each configuration; null for the fleet simulation. Tests set a fake. */
  Evaluator evaluator;
  /** Where the traffic comes from. Tests set a fake. */
  WorkloadSource workloads = WorkloadSource.WORKLOADS;
  /** Manifests in (-f) and out (--emit). Tests set a fake. */
  ManifestIo manifests = new ManifestIo(PlanModel::fromManifest, PlanManifests::emit);
  /** Whether progress goes to stderr without --verbose. */
  boolean terminal = onTerminal();

  /**
   * Whether a person is watching: a console on Java 21; from Java 22 on, where there is always a console object, one
   * whose input and output are a terminal ({@code Console.isTerminal}, looked up so that the code still runs on 21).
   */
  static boolean onTerminal() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }

  @Override
  public Integer call() throws Exception {
    // The simulated routers and servers log what a live one would (an index warming up, …): a plan shows only its
    // answer, and warnings.
    dev.modelplane.common.logging.LogSetup.configure(dev.modelplane.common.logging.LogFormat.KEYVALUE, "warn");
    PlanModel model = model();
    List<Slo> objectives = objectives();
    Prices priced = Prices.parse(prices);
    boolean json = json();
    if (plot != null) {
      PlanPlot.check(plot);
    }
    if (top < 1) {
      throw new UserError("--top must be >= 1, got " + top);
    }
    List<String> gpuNames = gpus.isEmpty() ? List.of(model.gpu() != null ? model.gpu() : "h100") : gpus;
    SearchSpace space = new SearchSpace(model.geometry(), gpuNames, tensorParallelSizes,
        profiles.stream().map(PlanCommand::profile).toList(), maxReplicas);
    priced.requireAll(space.gpus());
    Workload workload = workload();
    PrintWriter err = spec.commandLine().getErr();
    Consumer<String> progress = verbose || terminal ? line -> {
      err.println(line);
      err.flush();
    } : line -> { };
    PlanSearch search = new PlanSearch(evaluator != null ? evaluator : simulation(model), objectives, priced,
        PlanSearch.DEFAULT_MAX_EVALUATIONS, progress);
    PlanOutcome outcome = search.search(space, workload);
    if (plot != null && !outcome.plans().isEmpty()) {
      List<Plan> best = outcome.plans().subList(0, Math.min(PLOTTED, outcome.plans().size()));
      List<LoadSweep> sweeps = search.sweep(best, workload, LoadSweep.DEFAULT_FACTORS);
      progress.accept("plot: " + String.join(", ", PlanPlot.write(plot, sweeps).stream().map(Path::toString)
          .toList()));
    }
    outcome = outcome.withSimulation(search.totals()).top(top);
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? PlanReport.json(outcome) : PlanReport.table(outcome));
    out.flush();
    if (outcome.plans().isEmpty()) {
      if (emit != null || plot != null) {
        err.println("No configuration meets the SLOs: nothing written to " + (emit != null ? emit : plot) + ".");
        err.flush();
      }
      return NO_PLAN;
    }
    if (emit != null) {
      String yaml = manifests.emit().emit(model, outcome.plans().get(0).candidate(), workload);
      Files.writeString(emit, yaml, StandardCharsets.UTF_8);
    }
    return 0;
  }

  /** The model from exactly one of --model-config, --preset and -f. */
  private PlanModel model() throws java.io.IOException {
    long given = Stream.of(modelConfig, preset, manifest).filter(v -> v != null).count();
    if (given == 0) {
      throw new UserError("plan: give the model with --model-config FILE|NAME, --preset NAME or -f MANIFEST");
    }
    if (given > 1) {
      throw new UserError("plan: --model-config, --preset and -f/--filename each give the model; give only one");
    }
    try {
      if (modelConfig != null) {
        return PlanModel.fromConfig(modelConfig);
      }
      if (preset != null) {
        return PlanModel.fromPreset(preset);
      }
    } catch (IllegalArgumentException e) {
      String flag = modelConfig != null ? "--model-config" : "--preset";
      throw new UserError(e.getMessage().startsWith(flag) ? e.getMessage() : flag + ": " + e.getMessage(), e);
    }
    return manifests.read().read(manifest);
  }

  private List<Slo> objectives() {
    if (slos.isEmpty()) {
      throw new UserError("plan: give at least one --slo, e.g. --slo ttft-p90=500ms");
    }
    return slos.stream().map(Slo::parse).toList();
  }

  private boolean json() {
    return switch (output.toLowerCase(Locale.ROOT)) {
      case "table" -> false;
      case "json" -> true;
      default -> throw new UserError("-o/--output must be table or json, got \"" + output + "\"");
    };
  }

  private static RouterProfile profile(String name) {
    try {
      return RouterProfile.of(name);
    } catch (IllegalArgumentException e) {
      throw new UserError("--router-profile: " + e.getMessage(), e);
    }
  }

  /** The traffic: a workload file, a replay, or Poisson arrivals of fixed lengths. */
  private Workload workload() {
    Duration perRun = runDuration();
    if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
      throw new UserError("--rate must be a positive number of requests per second, got " + rate);
    }
    if (workloadFile != null && replay != null) {
      throw new UserError("plan: --workload and --replay each give the traffic; give only one");
    }
    if (workloadFile != null || replay != null) {
      if (promptTokens != null || outputTokens != null) {
        throw new UserError("plan: --prompt-tokens and --output-tokens shape the Poisson workload; the lengths of "
            + (workloadFile != null ? "--workload" : "--replay") + " come from its file");
      }
      return workloadFile != null ? workloads.file(workloadFile, rate, perRun, seed)
          : workloads.replay(replay, rate, perRun, seed);
    }
    if (rate == null) {
      throw new UserError("plan: give the traffic with --rate REQ_PER_S (Poisson), --workload FILE or --replay FILE");
    }
    int prompt = promptTokens == null ? 1024 : promptTokens;
    int generated = outputTokens == null ? 256 : outputTokens;
    if (prompt < 1 || generated < 1) {
      throw new UserError("--prompt-tokens and --output-tokens must be >= 1, got " + prompt + " and " + generated);
    }
    return workloads.poisson(rate, prompt, generated, perRun, seed);
  }

  private Duration runDuration() {
    Duration d;
    try {
      d = GoDuration.parse(duration);
    } catch (IllegalArgumentException e) {
      throw new UserError("--duration: " + e.getMessage(), e);
    }
    if (d.isNegative() || d.isZero()) {
      throw new UserError("--duration must be positive, got " + duration);
    }
    return d;
  }

  /** The fleet simulation of {@code model}'s configurations. */
  private Evaluator simulation(PlanModel model) {
    return (candidate, workload) -> FleetSimulation.run(new FleetConfig(
        model.simulatorArgs(candidate.gpu(), candidate.tensorParallelSize()), candidate.replicas(),
        candidate.profile()), workload, seed);
  }
}
