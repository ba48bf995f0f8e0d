package dev.modelplane.operator.ome.storage;

import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.operator.common.Names;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;

/**
 * One BaseModel ({@code namespace} set), ClusterBaseModel ({@code namespace} null) or FineTunedWeight (cluster-scoped,
 * placed on nodes like a model), and the names OME derives from it for the per-node reports: the node label
 * {@code models.ome.io/<ns>.basemodel.<name>}, {@code models.ome.io/clusterbasemodel.<name>} or
 * {@code models.ome.io/finetunedweight.<name>}, and the same key without the prefix in the node's ConfigMap.
 *
 * @param namespace the BaseModel's namespace, or null for a ClusterBaseModel or FineTunedWeight
 * @param name the model's name
 * @param fineTunedWeight whether this is a FineTunedWeight
 */
public record BaseModelKey(String namespace, String name, boolean fineTunedWeight) {
  /** Prefix of the per-node label. */
  public static final String LABEL_PREFIX = "models.ome.io/";
  private static final String CLUSTER = "clusterbasemodel.";
  private static final String WEIGHT = "finetunedweight.";
  private static final String NAMESPACED = ".basemodel.";

  /** The key of a BaseModel or ClusterBaseModel. */
  public BaseModelKey(String namespace, String name) {
    this(namespace, name, false);
  }

  /** The key of a BaseModel, ClusterBaseModel or FineTunedWeight. */
  public static BaseModelKey of(HasMetadata model) {
    if (model instanceof FineTunedWeight) {
      return fineTunedWeight(model.getMetadata().getName());
    }
    return new BaseModelKey(model instanceof ClusterBaseModel ? null : model.getMetadata().getNamespace(),
        model.getMetadata().getName());
  }

  /** The key of the FineTunedWeight {@code name}. */
  public static BaseModelKey fineTunedWeight(String name) {
    return new BaseModelKey(null, name, true);
  }

  /** Whether this is a ClusterBaseModel or a FineTunedWeight (both cluster-scoped). */
  public boolean clusterScoped() {
    return namespace == null;
  }

  /**
   * The key in a node's status ConfigMap: {@code clusterbasemodel.<name>}, {@code <ns>.basemodel.<name>} or
   * {@code finetunedweight.<name>}.
   */
  public String reportKey() {
    return fineTunedWeight ? WEIGHT + name : clusterScoped() ? CLUSTER + name : namespace + NAMESPACED + name;
  }

  /**
   * The node label: {@code models.ome.io/} + the report key. A label name has at most 63 characters, so a longer key
   * keeps its first characters and ends with 8 hex digits of its SHA-256 (stable, and still unique in practice).
   */
  public String labelKey() {
    String key = reportKey();
    if (key.length() > Names.MAX_LABEL) {
      key = key.substring(0, Names.MAX_LABEL - 9).replaceAll("[^A-Za-z0-9]+$", "") + "-"
          + Names.sha256Hex(reportKey()).substring(0, 8);
    }
    return LABEL_PREFIX + key;
  }

  /** The model a ConfigMap key names, if it is one. */
  public static Optional<BaseModelKey> fromReportKey(String key) {
    if (key.startsWith(WEIGHT) && key.length() > WEIGHT.length()) {
      return Optional.of(fineTunedWeight(key.substring(WEIGHT.length())));
    }
    if (key.startsWith(CLUSTER) && key.length() > CLUSTER.length()) {
      return Optional.of(new BaseModelKey(null, key.substring(CLUSTER.length())));
    }
    int at = key.indexOf(NAMESPACED);
    if (at > 0 && at + NAMESPACED.length() < key.length()) {
      return Optional.of(new BaseModelKey(key.substring(0, at), key.substring(at + NAMESPACED.length())));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return fineTunedWeight ? "finetunedweight/" + name
        : clusterScoped() ? "clusterbasemodel/" + name : "basemodel/" + namespace + "/" + name;
  }
}
