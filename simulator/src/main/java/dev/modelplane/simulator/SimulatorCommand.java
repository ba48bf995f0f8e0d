package dev.modelplane.simulator;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code modelplane simulator}: runs the vLLM-compatible simulator until interrupted. */
@Command(name = "simulator", mixinStandardHelpOptions = true,
    description = {"Runs a vLLM-compatible model-server simulator: OpenAI API, vLLM metrics, continuous batching,",
        "KV and prefix cache, LoRA, failure injection. Flags follow llm-d-inference-sim where they overlap;",
        "durations take Go syntax (100ms, 1.5s, 250us)."})
public final class SimulatorCommand implements Callable<Integer> {
  @Mixin
  SimulatorConfig config = new SimulatorConfig();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    var problems = config.problems();
    if (!problems.isEmpty()) {
      problems.forEach(p -> spec.commandLine().getErr().println("simulator: " + p));
      return 2;
    }
    Simulator sim;
    try {
      sim = Simulator.start(config);
    } catch (IllegalStateException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("simulator: cannot start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      sim.close();
      stop.countDown();
    }));
    spec.commandLine().getOut().printf("simulator: model=%s ports=%s calculator=%s max-num-seqs=%d kv-blocks=%d "
            + "block-size=%d time-scale=%s%n", config.model(), sim.ports(), config.effectiveCalculator(),
        config.maxNumSeqs(), config.kvCacheSize(), config.blockSize(), config.timeScale());
    spec.commandLine().getOut().flush();
    stop.await();
    return 0;
  }
}
