package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code modelplane list}: every modelplane object (LLMKube, OME, OtterScale, pools) in one table. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "Lists every modelplane object of a namespace (LLMKube, OME, OtterScale, InferencePools and "
        + "InferenceObjectives; cluster-scoped OME kinds too) with its state.")
public final class ListCommand extends UserCommand {
  @Option(names = {"-A", "--all-namespaces"}, description = "Every namespace.")
  boolean allNamespaces;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", converter = FormatConverter.class,
      description = "yaml, json or wide (default: a table).")
  OutputFormat format = OutputFormat.TABLE;

  @Override
  public Integer call() throws Exception {
    try (KubernetesClient client = cluster.client()) {
      String ns = allNamespaces ? null : cluster.namespace(client);
      List<JsonNode> objects = new ArrayList<>();
      Table table = format == OutputFormat.WIDE
          ? new Table("NAMESPACE", "KIND", "NAME", "STATUS", "AGE", "DETAIL")
          : new Table("NAMESPACE", "KIND", "NAME", "STATUS", "AGE");
      Instant now = Instant.now();
      for (ModelplaneKind kind : ModelplaneKind.ALL) {
        for (JsonNode o : list(client, kind, ns)) {
          objects.add(o);
          String namespace = o.at("/metadata/namespace").asText("");
          String[] cells = {namespace.isEmpty() ? "-" : namespace, kind.shortName(), o.at("/metadata/name").asText(),
              ModelplaneKind.state(o), Table.age(o.at("/metadata/creationTimestamp").asText(null), now)};
          if (format == OutputFormat.WIDE) {
            String[] wide = java.util.Arrays.copyOf(cells, 6);
            wide[5] = ModelplaneKind.detail(o);
            table.row(wide);
          } else {
            table.row(cells);
          }
        }
      }
      if (format == OutputFormat.YAML || format == OutputFormat.JSON) {
        OutputFormat.print(format, objects, out());
      } else if (table.isEmpty()) {
        err().println("No modelplane objects " + (ns == null ? "in any namespace" : "in namespace " + ns) + ".");
      } else {
        table.print(out());
      }
      return 0;
    }
  }

  /** picocli converter for {@code -o}. */
  public static final class FormatConverter implements picocli.CommandLine.ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      return OutputFormat.parse(value);
    }
  }
}
