package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job pod container's environment as the kubelet sets it: {@code envFrom} first, then {@code env} in order (plain
 * values with {@code $(VAR)} expanded, Secret and ConfigMap keys read from the cluster, field references), and the
 * offline switches of Hugging Face's libraries last (local runs never reach the internet).
 */
final class JobEnv {
  /** Set in every job container: Hugging Face's hub, transformers and datasets stay offline. */
  static final Map<String, String> OFFLINE = Map.of("HF_HUB_OFFLINE", "1", "TRANSFORMERS_OFFLINE", "1",
      "HF_DATASETS_OFFLINE", "1");

  private JobEnv() {
  }

  /** A missing Secret, ConfigMap or key the container needs (the kubelet's CreateContainerConfigError). */
  static final class ConfigError extends Exception {
    ConfigError(String message) {
      super(message);
    }
  }

  /** The environment of {@code container} in {@code pod}. */
  static Map<String, String> of(Pod pod, Container container, ClusterView cluster) throws ConfigError {
    String ns = pod.getMetadata().getNamespace();
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvFromSource from : container.getEnvFrom() == null ? List.<EnvFromSource>of() : container.getEnvFrom()) {
      String prefix = from.getPrefix() == null ? "" : from.getPrefix();
      if (from.getConfigMapRef() != null) {
        Optional<Map<String, byte[]>> data = cluster.configMap(ns, from.getConfigMapRef().getName());
        if (data.isEmpty() && !Boolean.TRUE.equals(from.getConfigMapRef().getOptional())) {
          throw new ConfigError("configmap \"" + from.getConfigMapRef().getName() + "\" not found");
        }
        data.orElse(Map.of()).forEach((k, v) -> env.put(prefix + k, text(v)));
      }
      if (from.getSecretRef() != null) {
        Optional<Map<String, byte[]>> data = cluster.secret(ns, from.getSecretRef().getName());
        if (data.isEmpty() && !Boolean.TRUE.equals(from.getSecretRef().getOptional())) {
          throw new ConfigError("secret \"" + from.getSecretRef().getName() + "\" not found");
        }
        data.orElse(Map.of()).forEach((k, v) -> env.put(prefix + k, text(v)));
      }
    }
    for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
      if (var.getValueFrom() == null) {
        env.put(var.getName(), ContainerArgv.expandKubernetes(var.getValue() == null ? "" : var.getValue(), env));
      } else if (var.getValueFrom().getSecretKeyRef() != null) {
        SecretKeySelector ref = var.getValueFrom().getSecretKeyRef();
        key(cluster.secret(ns, ref.getName()), "secret", ref.getName(), ref.getKey(), ref.getOptional())
            .ifPresent(v -> env.put(var.getName(), v));
      } else if (var.getValueFrom().getConfigMapKeyRef() != null) {
        ConfigMapKeySelector ref = var.getValueFrom().getConfigMapKeyRef();
        key(cluster.configMap(ns, ref.getName()), "configmap", ref.getName(), ref.getKey(), ref.getOptional())
            .ifPresent(v -> env.put(var.getName(), v));
      } else if (var.getValueFrom().getFieldRef() != null) {
        ContainerArgv.fieldValue(pod, var.getValueFrom().getFieldRef().getFieldPath())
            .ifPresent(v -> env.put(var.getName(), v));
      }
    }
    env.putAll(OFFLINE);
    return env;
  }

  private static Optional<String> key(Optional<Map<String, byte[]>> data, String kind, String name, String key,
      Boolean optional) throws ConfigError {
    if (data.isEmpty()) {
      if (Boolean.TRUE.equals(optional)) {
        return Optional.empty();
      }
      throw new ConfigError(kind + " \"" + name + "\" not found");
    }
    byte[] value = data.get().get(key);
    if (value == null) {
      if (Boolean.TRUE.equals(optional)) {
        return Optional.empty();
      }
      throw new ConfigError("couldn't find key " + key + " in " + kind + " " + name);
    }
    return Optional.of(text(value));
  }

  private static String text(byte[] value) {
    return new String(value, StandardCharsets.UTF_8);
  }
}
