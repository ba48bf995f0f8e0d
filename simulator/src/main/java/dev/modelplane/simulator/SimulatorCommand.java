package dev.modelplane.simulator;

import dev.modelplane.common.logging.LogOptions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code modelplane simulator}: runs the vLLM-compatible simulator until interrupted. */
@Command(name = "simulator", mixinStandardHelpOptions = true, subcommands = ProfileCommand.class,
    description = {"Runs a vLLM-compatible model-server simulator: OpenAI API, vLLM metrics, continuous batching,",
        "KV and prefix cache, LoRA, failure injection. Flags follow llm-d-inference-sim where they overlap;",
        "durations take Go syntax (100ms, 1.5s, 250us)."})
public final class SimulatorCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(SimulatorCommand.class);

  @Mixin
  SimulatorConfig config = new SimulatorConfig();

  @Mixin
  LogOptions logging = new LogOptions();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    logging.apply();
    var problems = config.problems();
    if (!problems.isEmpty()) {
      problems.forEach(p -> spec.commandLine().getErr().println("simulator: " + p));
      return 2;
    }
    Simulator sim;
    try {
      sim = Simulator.start(config);
    } catch (IllegalStateException | IllegalArgumentException e) {
      LOG.atError().addKeyValue("error", e.getMessage()).log("simulator cannot start");
      return 1;
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      sim.close();
      stop.countDown();
    }));
    LOG.atInfo().addKeyValue("model", config.model())
        .addKeyValue("ports", sim.ports().stream().map(String::valueOf).collect(Collectors.joining(",")))
        .addKeyValue("calculator", config.effectiveCalculator()).addKeyValue("hardware", hardware())
        .addKeyValue("max_num_seqs", config.maxNumSeqs())
        .addKeyValue("max_num_batched_tokens", config.maxNumBatchedTokens())
        .addKeyValue("kv_blocks", config.kvCacheSize()).addKeyValue("block_size", config.blockSize())
        .addKeyValue("time_scale", config.timeScale()).log("simulator started");
    stop.await();
    return 0;
  }

  private String hardware() {
    var m = config.costModel();
    return m == null ? "-" : m.geometry().name() + "@" + m.gpu().name() + (m.tensorParallel() > 1
        ? "x" + m.tensorParallel() : "");
  }
}
