package dev.modelplane.cli.user;

import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.operator.ome.benchmark.BenchmarkSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane bench summarize}: the results container of a BenchmarkJob's pod. Reads genai-bench's experiment
 * folder, prints a table and every row as JSON, and writes the compact summary the operator puts into the
 * BenchmarkJob's status to the termination log. Exit codes: 0 written; 1 no results in the folder, or the log could
 * not be written; 2 a usage error.
 */
@Command(name = "summarize", mixinStandardHelpOptions = true,
    description = "Summarizes a genai-bench experiment folder: prints a table and the results as JSON, and writes a "
        + "compact summary (at most 4096 bytes) to the termination log, where the operator reads it.")
public final class BenchSummarizeCommand implements Callable<Integer> {
  @Option(names = "--experiment-dir", required = true, paramLabel = "DIR",
      description = "The experiment folder genai-bench wrote (experiment_metadata.json and one JSON per iteration).")
  Path experimentDir;

  @Option(names = "--termination-log", paramLabel = "FILE", defaultValue = "/dev/termination-log",
      description = "Where the compact summary goes (default: ${DEFAULT-VALUE}, the container's termination "
          + "message).")
  Path terminationLog;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<BenchmarkResult> rows;
    try {
      rows = BenchmarkSummary.read(experimentDir);
    } catch (IOException e) {
      err.println("bench summarize: no benchmark results in " + experimentDir + ": " + e.getMessage());
      return 1;
    }
    if (rows.isEmpty()) {
      err.println("bench summarize: no benchmark results in " + experimentDir + ": genai-bench finished no "
          + "iteration there (no <scenario>_<task>_num_concurrency_<N>_time_<T>s.json)");
      return 1;
    }
    out.println("Benchmark results in " + experimentDir + " (" + rows.size() + (rows.size() == 1 ? " iteration):"
        : " iterations):"));
    BenchTable.print(rows, "", out);
    out.println();
    out.println("Results (JSON):");
    out.println(OutputFormat.JSON_MAPPER.writeValueAsString(rows));
    String summary = BenchmarkSummary.encode(rows, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    try {
      Files.write(terminationLog, summary.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      err.println("bench summarize: cannot write the summary to " + terminationLog + " (" + e
          + "); choose another file with --termination-log");
      return 1;
    }
    int kept = BenchmarkSummary.decode(summary).results().size();
    out.println("Summary of " + kept + " of " + rows.size() + " iterations written to " + terminationLog + " ("
        + summary.getBytes(StandardCharsets.UTF_8).length + " bytes).");
    out.flush();
    return 0;
  }
}
