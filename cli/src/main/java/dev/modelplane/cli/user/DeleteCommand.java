package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code modelplane delete NAME}: the InferenceService, and the Model and pool {@code deploy} created with it. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Deletes the LLMKube InferenceService NAME, and the Model and InferencePool of the same name when "
        + "'modelplane deploy' created them.")
public final class DeleteCommand extends UserCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "InferenceService name.")
  String name;

  @Option(names = "--keep-model", description = "Keep the Model (and its cached files).")
  boolean keepModel;

  @Override
  public Integer call() throws Exception {
    try (KubernetesClient client = cluster.client()) {
      String ns = cluster.namespace(client);
      ModelplaneKind isvc = ModelplaneKind.ALL.get(0);
      if (get(client, isvc, ns, name).isEmpty()) {
        err().println("error: delete: no InferenceService " + name + " in namespace " + ns);
        return NOT_FOUND;
      }
      delete(client, isvc, ns);
      for (ModelplaneKind kind : ModelplaneKind.ALL) {
        boolean companion = "InferencePool".equals(kind.kind())
            || "Model".equals(kind.kind()) && ModelplaneKind.LLMKUBE.equals(kind.apiVersion()) && !keepModel;
        Optional<JsonNode> o = companion ? get(client, kind, ns, name) : Optional.empty();
        if (o.isPresent() && DeployCommand.CREATED_BY_VALUE.equals(
            o.get().at("/metadata/labels").path(DeployCommand.CREATED_BY).asText())) {
          delete(client, kind, ns);
        }
      }
      return 0;
    }
  }

  private void delete(KubernetesClient client, ModelplaneKind kind, String ns) {
    client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(ns).withName(name).delete();
    out().println(kind.kind() + " " + ns + "/" + name + " deleted");
  }
}
