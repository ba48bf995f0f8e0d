package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code modelplane queue}: the LLMKube InferenceServices waiting for GPUs, in the order they will get them. */
@Command(name = "queue", mixinStandardHelpOptions = true,
    description = "Lists the InferenceServices of every namespace that wait for GPUs, in queue order (priority, "
        + "then age).")
public final class QueueCommand extends UserCommand {
  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", converter = ListCommand.FormatConverter.class,
      description = "yaml or json: the waiting services themselves.")
  OutputFormat format = OutputFormat.TABLE;

  @Override
  public Integer call() throws Exception {
    try (KubernetesClient client = cluster.client()) {
      List<JsonNode> waiting = list(client, ModelplaneKind.ALL.get(0), null).stream()
          .filter(o -> o.at("/status/queuePosition").asInt(0) > 0)
          .sorted(Comparator.comparingInt(o -> o.at("/status/queuePosition").asInt())).toList();
      if (format == OutputFormat.YAML || format == OutputFormat.JSON) {
        OutputFormat.print(format, waiting, out());
        return 0;
      }
      if (waiting.isEmpty()) {
        out().println("No InferenceService is waiting for GPUs.");
        return 0;
      }
      Instant now = Instant.now();
      Table t = new Table("POSITION", "NAMESPACE", "NAME", "PRIORITY", "GPUS", "REASON", "AGE");
      for (JsonNode o : waiting) {
        t.row(o.at("/status/queuePosition").asText(), o.at("/metadata/namespace").asText(),
            o.at("/metadata/name").asText(), o.at("/spec/priority").asText("normal") + " ("
                + o.at("/status/effectivePriority").asText("-") + ")",
            Integer.toString(o.at("/spec/resources/gpu").asInt(0) * Math.max(1, o.at("/spec/replicas").asInt(1))),
            o.at("/status/schedulingStatus").asText("-"), Table.age(o.at("/metadata/creationTimestamp").asText(null),
                now));
      }
      t.print(out());
      return 0;
    }
  }
}
