package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local directories of a job pod's volumes: an emptyDir (and any kind without a local meaning) is
 * {@code <pod dir>/volumes/<volume>}; a claim is its bound volume's directory; a hostPath is under the node's
 * directory {@code <nodes dir>/<node>/<path>} (where the simulated model agents keep the node's models); a
 * ConfigMap or Secret is written as files (its keys, or its {@code items}) into {@code <pod dir>/volumes/<volume>}.
 */
final class JobVolumes {
  private JobVolumes() {
  }

  /** A volume the pod cannot mount yet (a claim not bound, a ConfigMap or Secret missing). */
  static final class NotReady extends Exception {
    NotReady(String message) {
      super(message);
    }
  }

  /** Volume name → local directory, creating what must exist. */
  static Map<String, Path> directories(Pod pod, Path podDir, Path nodesDir, ClusterView cluster)
      throws NotReady, IOException {
    String ns = pod.getMetadata().getNamespace();
    Map<String, Path> dirs = new LinkedHashMap<>();
    List<Volume> volumes = pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    for (Volume v : volumes) {
      Path own = podDir.resolve("volumes").resolve(v.getName());
      Path dir;
      if (v.getPersistentVolumeClaim() != null) {
        String claim = v.getPersistentVolumeClaim().getClaimName();
        dir = cluster.claimDirectory(ns, claim).orElseThrow(() -> new NotReady("volume \"" + v.getName()
            + "\": claim " + ns + "/" + claim + " is not bound to a directory volume"));
      } else if (v.getHostPath() != null) {
        dir = nodesDir.resolve(pod.getSpec().getNodeName()).resolve(relative(v.getHostPath().getPath()));
      } else if (v.getConfigMap() != null) {
        dir = own;
        String name = v.getConfigMap().getName();
        Optional<Map<String, byte[]>> data = cluster.configMap(ns, name);
        if (data.isEmpty() && !Boolean.TRUE.equals(v.getConfigMap().getOptional())) {
          throw new NotReady("volume \"" + v.getName() + "\": configmap \"" + name + "\" not found");
        }
        write(own, data.orElse(Map.of()), v.getConfigMap().getItems());
      } else if (v.getSecret() != null) {
        dir = own;
        String name = v.getSecret().getSecretName();
        Optional<Map<String, byte[]>> data = cluster.secret(ns, name);
        if (data.isEmpty() && !Boolean.TRUE.equals(v.getSecret().getOptional())) {
          throw new NotReady("volume \"" + v.getName() + "\": secret \"" + name + "\" not found");
        }
        write(own, data.orElse(Map.of()), v.getSecret().getItems());
      } else {
        dir = own;
      }
      Files.createDirectories(dir);
      dirs.put(v.getName(), dir);
    }
    return dirs;
  }

  private static void write(Path dir, Map<String, byte[]> data, List<KeyToPath> items) throws IOException {
    Files.createDirectories(dir);
    if (items == null || items.isEmpty()) {
      for (Map.Entry<String, byte[]> e : data.entrySet()) {
        Files.write(dir.resolve(e.getKey()), e.getValue());
      }
      return;
    }
    for (KeyToPath item : items) {
      byte[] value = data.get(item.getKey());
      if (value != null) {
        Path file = dir.resolve(relative(item.getPath()));
        Files.createDirectories(file.getParent());
        Files.write(file, value);
      }
    }
  }

  private static String relative(String path) {
    String p = path == null ? "" : path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    return p;
  }
}
