package dev.modelplane.cli.user;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code modelplane bench}: benchmark results, from a genai-bench folder or a BenchmarkJob. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmark results: 'summarize' reads a genai-bench experiment folder (what a BenchmarkJob's pod "
        + "runs), 'report' shows a BenchmarkJob's results and plots them.",
    subcommands = {BenchSummarizeCommand.class, BenchReportCommand.class})
public final class BenchCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
