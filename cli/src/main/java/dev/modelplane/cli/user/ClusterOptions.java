package dev.modelplane.cli.user;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the user commands find the cluster: {@code --kubeconfig}, else {@code $KUBECONFIG}, else the running dev
 * cluster of {@code modelplane up}, else {@code ~/.kube/config} or in-cluster.
 */
public final class ClusterOptions {
  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig file (default: $KUBECONFIG, the "
      + "dev cluster of 'modelplane up' when it runs, ~/.kube/config).")
  Path kubeconfig;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
      description = "Namespace (default: the kubeconfig's, else default).")
  String namespace;

  /** The kubeconfig of the dev cluster's default state directory, when that cluster runs. */
  static Path devClusterKubeconfig() {
    String cache = System.getenv("XDG_CACHE_HOME");
    Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
    Path dir = base.resolve("modelplane/dev-cluster");
    Path state = dir.resolve("state.json");
    if (!Files.exists(state)) {
      return null;
    }
    try {
      long pid = new com.fasterxml.jackson.databind.ObjectMapper().readTree(state.toFile()).path("pid").asLong();
      boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
      return alive ? dir.resolve("kubeconfig") : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** A client for the chosen cluster. */
  public KubernetesClient client() throws IOException {
    Path file = kubeconfig;
    if (file == null && (System.getenv("KUBECONFIG") == null || System.getenv("KUBECONFIG").isBlank())) {
      file = devClusterKubeconfig();
    }
    Config config = file == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(file));
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The namespace to use with {@code client}. */
  public String namespace(KubernetesClient client) {
    if (namespace != null) {
      return namespace;
    }
    String configured = client.getNamespace();
    return configured == null || configured.isBlank() ? "default" : configured;
  }
}
