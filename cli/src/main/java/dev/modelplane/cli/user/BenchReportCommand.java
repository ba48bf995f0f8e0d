package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code modelplane bench report NAME}: a BenchmarkJob's results from its status, as a table, and plotted as SVG and
 * PNG. Exit codes: 0 completed (report and plots written); 1 no such BenchmarkJob, it failed, or the plots could not
 * be written; 2 a usage error; 3 not finished yet (Pending or Running; nothing is written).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Shows a BenchmarkJob's state, model, API base, report location and results (per scenario and "
        + "concurrency: requests, errors, requests/s, output tokens/s, TTFT and E2E p50/p90/p99), and plots "
        + "throughput and latency against concurrency as SVG and PNG. Exit codes: 0 completed, 1 not found or failed, "
        + "2 usage error, 3 still Pending or Running.")
public final class BenchReportCommand extends UserCommand {
  /** The exit code of a BenchmarkJob that has not finished. */
  static final int NOT_FINISHED = 3;
  private static final String KIND = "BenchmarkJob";
  private static final ObjectMapper STATUS = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @Parameters(index = "0", paramLabel = "NAME", description = "BenchmarkJob name.")
  String name;

  @Option(names = "--output-dir", paramLabel = "DIR",
      description = "Where the plots go (default: NAME-benchmark in the current directory).")
  Path outputDir;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", converter = FormatConverter.class,
      description = "table (the default) or json: the BenchmarkJob's status.")
  OutputFormat format = OutputFormat.TABLE;

  @Override
  public Integer call() throws Exception {
    JsonNode job;
    String ns;
    try (KubernetesClient client = cluster.client()) {
      ns = cluster.namespace(client);
      ModelplaneKind kind = ModelplaneKind.ALL.stream().filter(k -> KIND.equals(k.kind())).findFirst().orElseThrow();
      Optional<JsonNode> found = get(client, kind, ns, name);
      if (found.isEmpty()) {
        err().println("error: bench report: no BenchmarkJob " + name + " in namespace " + ns
            + " ('modelplane list' shows what exists)");
        return NOT_FOUND;
      }
      job = found.get();
    }
    JsonNode statusNode = job.path("status");
    BenchmarkJobStatus status = statusNode.isObject() ? STATUS.treeToValue(statusNode, BenchmarkJobStatus.class)
        : null;
    BenchmarkState state = status == null || status.state() == null ? BenchmarkState.Pending : status.state();
    boolean json = format == OutputFormat.JSON;
    PrintWriter out = json ? err() : out();
    if (json) {
      out().println(OutputFormat.JSON_MAPPER.writeValueAsString(statusNode.isObject() ? statusNode
          : OutputFormat.JSON_MAPPER.createObjectNode()));
      out().flush();
    } else {
      header(ns, state, status, out);
    }
    return switch (state) {
      case Pending, Running -> {
        out.println("No results yet: the benchmark is " + state
            + (status != null && status.details() != null ? " (" + status.details() + ")" : "") + ".");
        out.flush();
        yield NOT_FINISHED;
      }
      case Failed -> {
        err().println("error: bench report: BenchmarkJob " + ns + "/" + name + " failed: "
            + (status.failureMessage() == null ? "no message" : status.failureMessage()));
        yield NOT_FOUND;
      }
      case Completed -> completed(status, json ? null : out());
    };
  }

  private void header(String ns, BenchmarkState state, BenchmarkJobStatus status, PrintWriter out) {
    out.println("BenchmarkJob " + ns + "/" + name);
    field(out, "State", state.name());
    if (status != null) {
      field(out, "Model", status.modelName());
      field(out, "API base", status.apiBase());
      field(out, "Report", status.reportLocation());
      field(out, "Started", status.startTime());
      field(out, "Completed", status.completionTime());
      field(out, "Details", status.details());
      field(out, "Failure", status.failureMessage());
    }
    out.flush();
  }

  private int completed(BenchmarkJobStatus status, PrintWriter table) throws java.io.IOException {
    List<BenchmarkResult> rows = status.results() == null ? List.of() : status.results();
    int omitted = status.resultsOmitted() == null ? 0 : status.resultsOmitted();
    if (table != null && !rows.isEmpty()) {
      table.println();
      BenchTable.print(rows, "", table);
    }
    PrintWriter notes = table != null ? table : err();
    if (omitted > 0) {
      notes.println(omitted + " more iteration" + (omitted == 1 ? " is" : "s are") + " only in the full report"
          + (status.reportLocation() == null ? "." : " at " + status.reportLocation() + "."));
    }
    if (rows.isEmpty()) {
      notes.println("The status holds no results to plot.");
      notes.flush();
      return 0;
    }
    Path dir = outputDir != null ? outputDir : Path.of(name + "-benchmark");
    List<Path> files;
    try {
      files = BenchPlots.write(rows, dir);
    } catch (java.io.IOException e) {
      err().println("error: bench report: cannot write the plots to " + dir + ": " + e);
      return NOT_FOUND;
    }
    notes.println("Plots (" + files.size() + " files) written to " + dir + ":");
    files.forEach(f -> notes.println("  " + f.getFileName()));
    notes.flush();
    return 0;
  }

  private static void field(PrintWriter out, String label, String value) {
    if (value != null && !value.isBlank()) {
      out.println(String.format("  %-11s %s", label + ":", value));
    }
  }

  /** picocli converter for {@code -o}: table or json. */
  public static final class FormatConverter implements ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      return switch (value.toLowerCase(Locale.ROOT)) {
        case "json" -> OutputFormat.JSON;
        case "table" -> OutputFormat.TABLE;
        default -> throw new TypeConversionException("-o must be table or json, not '" + value + "'");
      };
    }
  }
}
