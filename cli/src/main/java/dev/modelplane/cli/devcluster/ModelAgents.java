package dev.modelplane.cli.devcluster;

import dev.modelplane.operator.ome.modelagent.ModelAgent;
import dev.modelplane.operator.ome.modelagent.ModelAgentSettings;
import dev.modelplane.operator.ome.modelagent.ModelRoots;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OME model agent of every fake node, in the dev-cluster process, with simulated downloads: a BaseModel or
 * ClusterBaseModel whose storage selects a node becomes Ready there (node label, status ConfigMap, a placeholder
 * directory under {@code <dir>/<node>}), so OME InferenceServices schedule their pods as on a real cluster. The
 * models root {@value ModelRoots#DEFAULT} is mapped into that directory.
 */
public final class ModelAgents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ModelAgents.class);
  private final KubernetesClient client;
  private final Path dir;
  private final List<ModelAgent> agents = new ArrayList<>();

  /**
   * @param client the dev cluster
   * @param dir where each node's models directory is created
   */
  public ModelAgents(KubernetesClient client, Path dir) {
    this.client = client;
    this.dir = dir;
  }

  /** Starts an agent for each node, reporting into the namespace the operator reads by default. */
  public void start(List<String> nodeNames) throws IOException {
    String namespace = ModelAgentSettings.DEFAULT_NAMESPACE;
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
        .build()).fieldManager(ClusterAddons.MANAGER).forceConflicts().serverSideApply();
    for (String node : nodeNames) {
      Path local = dir.resolve(node).resolve(ModelRoots.DEFAULT.substring(1)).toAbsolutePath();
      Files.createDirectories(local);
      ModelRoots roots = ModelRoots.parse(List.of(ModelRoots.DEFAULT + "=" + local));
      agents.add(ModelAgent.start(client, ModelAgentSettings.of(node, namespace, roots).withSimulatedDownloads()));
    }
    LOG.atInfo().addKeyValue("nodes", nodeNames.size()).addKeyValue("namespace", namespace)
        .log("model agents started (simulated downloads)");
  }

  @Override
  public void close() {
    for (ModelAgent agent : agents) {
      agent.close();
    }
    agents.clear();
  }
}
