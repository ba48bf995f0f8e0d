package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code modelplane status NAME}: where every modelplane object of that name stands, and its recent Events. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Shows the phase, conditions, endpoint, replicas, GPU queue position and recent Events of the "
        + "modelplane objects named NAME (an InferenceService and its Model and pool share a name).")
public final class StatusCommand extends UserCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "Object name.")
  String name;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", converter = ListCommand.FormatConverter.class,
      description = "yaml or json: the objects themselves.")
  OutputFormat format = OutputFormat.TABLE;

  @Override
  public Integer call() throws Exception {
    try (KubernetesClient client = cluster.client()) {
      String ns = cluster.namespace(client);
      List<JsonNode> found = new ArrayList<>();
      List<ModelplaneKind> kinds = new ArrayList<>();
      for (ModelplaneKind kind : ModelplaneKind.ALL) {
        get(client, kind, ns, name).ifPresent(o -> {
          found.add(o);
          kinds.add(kind);
        });
      }
      if (found.isEmpty()) {
        err().println("error: status: no modelplane object named " + name + " in namespace " + ns
            + " ('modelplane list -A' shows what exists)");
        return NOT_FOUND;
      }
      if (format == OutputFormat.YAML || format == OutputFormat.JSON) {
        OutputFormat.print(format, found, out());
        return 0;
      }
      Instant now = Instant.now();
      for (int i = 0; i < found.size(); i++) {
        describe(kinds.get(i), found.get(i), out(), now);
        if (isLlmkubeService(kinds.get(i))) {
          for (String progress : DownloadProgress.ofService(client, ns, name)) {
            field(out(), "Download", progress);
          }
        }
      }
      events(client, ns, now);
      return 0;
    }
  }

  private static void describe(ModelplaneKind kind, JsonNode o, PrintWriter out, Instant now) {
    JsonNode status = o.path("status");
    String ns = o.at("/metadata/namespace").asText("");
    out.println(kind.shortName() + " " + (ns.isEmpty() ? "" : ns + "/") + o.at("/metadata/name").asText()
        + " (age " + Table.age(o.at("/metadata/creationTimestamp").asText(null), now) + ")");
    field(out, "Status", ModelplaneKind.state(o));
    for (String f : List.of("endpoint", "url", "modelName")) {
      if (status.hasNonNull(f)) {
        field(out, Character.toUpperCase(f.charAt(0)) + f.substring(1), status.get(f).asText());
      }
    }
    if (status.has("readyReplicas") || status.has("replicas")) {
      field(out, "Replicas", status.path("readyReplicas").asInt(0) + "/"
          + o.at("/spec/replicas").asInt(status.path("replicas").asInt(0)) + " ready");
    }
    if (status.path("queuePosition").asInt(0) > 0) {
      field(out, "GPU queue", "position " + status.get("queuePosition").asInt() + ", priority "
          + status.path("effectivePriority").asText("-") + " (" + status.path("schedulingStatus").asText("waiting")
          + ")");
    }
    if ("BenchmarkJob".equals(kind.kind())) {
      benchmark(status, out);
    }
    JsonNode conditions = status.path("conditions");
    if (conditions.size() > 0) {
      out.println("  Conditions:");
      Table t = new Table("    TYPE", "STATUS", "REASON", "MESSAGE");
      for (JsonNode c : conditions) {
        t.row("    " + c.path("type").asText(), c.path("status").asText(), c.path("reason").asText(""),
            c.path("message").asText(""));
      }
      t.print(out);
    }
    out.flush();
  }

  /** A BenchmarkJob's run: where it sends requests, how it failed or what it waits for, and its results. */
  private static void benchmark(JsonNode status, PrintWriter out) {
    for (String[] f : new String[][] {{"apiBase", "API base"}, {"reportLocation", "Report"},
        {"details", "Details"}, {"failureMessage", "Failure"}}) {
      if (status.hasNonNull(f[0])) {
        field(out, f[1], status.get(f[0]).asText());
      }
    }
    if (status.path("results").size() > 0) {
      out.println("  Results:");
      try {
        BenchTable.print(List.of(OutputFormat.JSON_MAPPER.treeToValue(status.get("results"),
            dev.modelplane.api.ome.v1beta1.BenchmarkResult[].class)), "    ", out);
      } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
        out.println("    (unreadable: " + e.getMessage().lines().findFirst().orElse("") + ")");
      }
      int omitted = status.path("resultsOmitted").asInt(0);
      if (omitted > 0) {
        out.println("    " + omitted + " more in the full report ('modelplane bench report' plots them)");
      }
    }
  }

  private static boolean isLlmkubeService(ModelplaneKind kind) {
    return ModelplaneKind.LLMKUBE.equals(kind.apiVersion()) && "InferenceService".equals(kind.kind());
  }

  private static void field(PrintWriter out, String label, String value) {
    out.println(String.format("  %-11s %s", label + ":", value));
  }

  private void events(KubernetesClient client, String ns, Instant now) {
    List<Event> events = new ArrayList<>(client.v1().events().inNamespace(ns)
        .withField("involvedObject.name", name).list().getItems());
    if (events.isEmpty()) {
      return;
    }
    events.sort(Comparator.comparing(StatusCommand::when));
    out().println("Events (most recent last):");
    Table t = new Table("  AGE", "TYPE", "REASON", "OBJECT", "MESSAGE");
    for (Event e : events.subList(Math.max(0, events.size() - 10), events.size())) {
      t.row("  " + Table.age(when(e), now), e.getType(), e.getReason(),
          e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName(), e.getMessage());
    }
    t.print(out());
  }

  private static String when(Event e) {
    if (e.getLastTimestamp() != null) {
      return e.getLastTimestamp();
    }
    if (e.getEventTime() != null && e.getEventTime().getTime() != null) {
      return e.getEventTime().getTime();
    }
    return e.getMetadata().getCreationTimestamp() == null ? "" : e.getMetadata().getCreationTimestamp();
  }
}
