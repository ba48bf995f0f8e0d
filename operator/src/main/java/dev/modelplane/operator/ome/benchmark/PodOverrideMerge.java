package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.PodOverride;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Merges a BenchmarkJob's {@code podOverride} over the generated pod, as OME's strategic merge does: lists by name
 * (mounts by path), maps key by key, single values replaced; tolerations and env sources are added.
 */
final class PodOverrideMerge {
  private PodOverrideMerge() {
  }

  /** Applies {@code o} to {@code pod} and its {@code benchmark} container in place. */
  static void apply(PodOverride o, PodSpec pod, Container benchmark) {
    if (o == null) {
      return;
    }
    if (o.image() != null) {
      benchmark.setImage(o.image());
    }
    benchmark.setEnv(byKey(benchmark.getEnv(), o.env(), EnvVar::getName));
    if (o.envFrom() != null) {
      List<io.fabric8.kubernetes.api.model.EnvFromSource> from = new ArrayList<>(orEmpty(benchmark.getEnvFrom()));
      from.addAll(o.envFrom());
      benchmark.setEnvFrom(from);
    }
    benchmark.setVolumeMounts(byKey(benchmark.getVolumeMounts(), o.volumeMounts(), VolumeMount::getMountPath));
    if (o.resources() != null) {
      benchmark.setResources(resources(benchmark.getResources(), o.resources()));
    }
    if (o.tolerations() != null) {
      var tolerations = new ArrayList<>(orEmpty(pod.getTolerations()));
      o.tolerations().stream().filter(t -> !tolerations.contains(t)).forEach(tolerations::add);
      pod.setTolerations(tolerations);
    }
    if (o.nodeSelector() != null) {
      Map<String, String> selector = new LinkedHashMap<>(pod.getNodeSelector() == null ? Map.of()
          : pod.getNodeSelector());
      selector.putAll(o.nodeSelector());
      pod.setNodeSelector(selector);
    }
    if (o.affinity() != null) {
      pod.setAffinity(o.affinity());
    }
    pod.setVolumes(byKey(pod.getVolumes(), o.volumes(), Volume::getName));
  }

  private static ResourceRequirements resources(ResourceRequirements base, ResourceRequirements over) {
    ResourceRequirements r = new ResourceRequirements();
    r.setRequests(merged(base == null ? null : base.getRequests(), over.getRequests()));
    r.setLimits(merged(base == null ? null : base.getLimits(), over.getLimits()));
    r.setClaims(over.getClaims() != null ? over.getClaims() : base == null ? null : base.getClaims());
    return r;
  }

  private static Map<String, Quantity> merged(Map<String, Quantity> base, Map<String, Quantity> over) {
    if (base == null && over == null) {
      return null;
    }
    Map<String, Quantity> m = new LinkedHashMap<>(base == null ? Map.of() : base);
    if (over != null) {
      m.putAll(over);
    }
    return m;
  }

  /** {@code base} with every entry of {@code over} replacing the one of the same key, new ones appended. */
  private static <T> List<T> byKey(List<T> base, List<T> over, Function<T, String> key) {
    if (over == null || over.isEmpty()) {
      return base;
    }
    Map<String, T> m = new LinkedHashMap<>();
    orEmpty(base).forEach(t -> m.put(key.apply(t), t));
    over.forEach(t -> m.put(key.apply(t), t));
    return new ArrayList<>(m.values());
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
