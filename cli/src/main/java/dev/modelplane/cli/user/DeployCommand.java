package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.render.ManifestRenderer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code modelplane deploy NAME --model SRC}: a Model, an LLMKube InferenceService and an InferencePool in one go. */
@Command(name = "deploy", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Creates (or updates) a Model NAME from --model, an LLMKube InferenceService NAME serving it and "
        + "an InferencePool NAME the router serves. --dry-run prints them instead.",
        "Then: modelplane status NAME, modelplane chat NAME \"Hello\"."})
public final class DeployCommand extends UserCommand {
  /** The label that marks objects this command created ({@code delete} removes only those besides the service). */
  public static final String CREATED_BY = "app.kubernetes.io/created-by";
  static final String CREATED_BY_VALUE = "modelplane-cli";

  @Parameters(index = "0", paramLabel = "NAME", description = "Name of the Model, InferenceService and pool.")
  String name;

  @Option(names = "--model", required = true, paramLabel = "SRC", description = "Model source: https://…/file.gguf, "
      + "hf://org/repo, org/repo, s3://bucket/key, pvc://claim/path or a file path.")
  String source;

  @Option(names = "--runtime", defaultValue = "llamacpp", paramLabel = "RUNTIME",
      description = "llamacpp, vllm, sglang, tgi, … (default: ${DEFAULT-VALUE}).")
  String runtime;

  @Option(names = "--gpus", paramLabel = "N", description = "GPUs per replica (default: none).")
  Integer gpus;

  @Option(names = "--replicas", defaultValue = "1", paramLabel = "N", description = "Replicas (default: 1).")
  int replicas;

  @Option(names = "--priority", paramLabel = "TIER", description = "critical, high, normal, low or batch.")
  String priority;

  @Option(names = "--context", paramLabel = "TOKENS", description = "Context size (llama.cpp).")
  Integer context;

  @Option(names = "--no-pool", description = "Do not create an InferencePool.")
  boolean noPool;

  @Option(names = "--wait", description = "Wait until the service is Ready (up to --timeout).")
  boolean await;

  @Option(names = "--timeout", defaultValue = "10m", converter = GoDuration.NonNegativeOrIso8601Converter.class,
      description = "With --wait, a Go duration such as 90s or 1h (default: ${DEFAULT-VALUE}; ISO-8601 such as "
          + "PT10M is still read but deprecated).")
  Duration timeout;

  @Option(names = "--dry-run", description = "Print the objects; create nothing.")
  boolean dryRun;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", converter = ListCommand.FormatConverter.class,
      description = "With --dry-run: yaml (default) or json.")
  OutputFormat format = OutputFormat.YAML;

  @Override
  public Integer call() throws Exception {
    if (replicas < 0 || gpus != null && gpus < 0 || context != null && context < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--replicas and --gpus must not be negative, --context must be positive");
    }
    known("--runtime", runtime, dev.modelplane.api.llmkube.v1alpha1.InferenceRuntime.class);
    known("--priority", priority, dev.modelplane.api.llmkube.v1alpha1.SchedulingPriority.class);
    if (dryRun) { // no cluster needed: the namespace is -n's, else default
      List<JsonNode> objects = objects(cluster.namespace != null ? cluster.namespace : "default");
      OutputFormat.print(format == OutputFormat.JSON ? OutputFormat.JSON : OutputFormat.YAML, objects, out());
      return 0;
    }
    try (KubernetesClient client = cluster.client()) {
      String ns = cluster.namespace(client);
      List<JsonNode> objects = objects(ns);
      StringBuilder yaml = new StringBuilder();
      for (JsonNode o : objects) {
        yaml.append("---\n").append(OutputFormat.YAML_MAPPER.writeValueAsString(o));
      }
      List<HasMetadata> applied = ManifestRollout.apply(client,
          new ByteArrayInputStream(yaml.toString().getBytes(StandardCharsets.UTF_8)), CREATED_BY_VALUE);
      for (HasMetadata o : applied) {
        out().println(o.getKind() + " " + ns + "/" + o.getMetadata().getName() + " applied");
      }
      if (await && !ManifestRollout.waitReady(client, applied, timeout, out())) {
        err().println("error: deploy: not ready after " + GoDuration.format(timeout) + "; see: modelplane status "
            + name);
        return 1;
      }
      out().println("Next: modelplane status " + name + (noPool ? "" : "; modelplane chat " + name + " \"Hello\""));
      return 0;
    }
  }

  /** A {@link UserError} naming the nearest value when {@code value} is not one {@code type} knows. */
  private void known(String option, String value, Class<? extends Enum<?>> type) {
    java.util.List<String> values = FieldSuggestion.enumValues(type);
    if (value != null && !values.contains(value)) {
      throw new UserError("deploy " + name + ": " + option + " " + value + ": no such value" + FieldSuggestion
          .closest(value, values).map(v -> " (did you mean " + v + "?)")
          .orElse(" (one of " + String.join(", ", values) + ")"));
    }
  }

  /** The Model, the InferenceService and (unless --no-pool) the InferencePool. */
  List<JsonNode> objects(String ns) {
    ObjectNode model = object(ModelplaneKind.LLMKUBE, "Model", ns);
    model.putObject("spec").put("source", source);
    ObjectNode isvc = object(ModelplaneKind.LLMKUBE, "InferenceService", ns);
    ObjectNode spec = isvc.putObject("spec").put("modelRef", name).put("runtime", runtime).put("replicas", replicas);
    if (context != null) {
      spec.put("contextSize", context);
    }
    if (gpus != null) {
      spec.putObject("resources").put("gpu", gpus);
    }
    if (priority != null) {
      spec.put("priority", priority);
    }
    List<JsonNode> out = new ArrayList<>(List.of(model, isvc));
    if (!noPool) {
      ObjectNode pool = object(ModelplaneKind.POOL, "InferencePool", ns);
      ObjectNode poolSpec = pool.putObject("spec");
      poolSpec.putObject("selector").putObject("matchLabels").put("app", name);
      ((ArrayNode) poolSpec.putArray("targetPorts")).addObject().put("number", servingPort(model, isvc));
      poolSpec.putObject("endpointPickerRef").put("name", "modelplane-router").putObject("port").put("number", 9002);
      out.add(pool);
    }
    return out;
  }

  private ObjectNode object(String apiVersion, String kind, String ns) {
    ObjectNode o = OutputFormat.JSON_MAPPER.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
    o.putObject("metadata").put("name", name).put("namespace", ns).putObject("labels")
        .put(CREATED_BY, CREATED_BY_VALUE);
    return o;
  }

  /** The port the operator's renderer gives the model server (the pool's target port). */
  private static int servingPort(JsonNode model, JsonNode isvc) {
    List<String> messages = new ArrayList<>();
    String yaml = "---\n" + model + "\n---\n" + isvc + "\n";
    ManifestRenderer.Result r = ManifestRenderer.render(ManifestRenderer.parse(yaml, messages),
        OperatorSettings.defaults(), "default");
    return r.objects().stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).findFirst()
        .map(d -> d.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getContainerPort())
        .orElse(8080);
  }
}
