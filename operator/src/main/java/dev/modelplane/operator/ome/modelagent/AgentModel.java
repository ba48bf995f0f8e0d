package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What the agent needs of a BaseModel, ClusterBaseModel or FineTunedWeight: its key, its storage, whether it is
 * being deleted and whether metadata parsing is switched off (always, for a fine-tuned weight).
 *
 * @param key the model's key
 * @param storage {@code spec.storage} (null when the spec has none)
 * @param deleting whether {@code metadata.deletionTimestamp} is set
 * @param skipConfigParsing whether the annotation {@value #SKIP_CONFIG_PARSING} is {@code "true"}
 * @param created {@code metadata.creationTimestamp}, or null (who keeps an overlapping directory: {@link ModelPaths})
 */
public record AgentModel(BaseModelKey key, StorageSpec storage, boolean deleting, boolean skipConfigParsing,
    Instant created) {
  /** OME's opt-out annotation: do not read metadata from the downloaded files. */
  public static final String SKIP_CONFIG_PARSING = "ome.oracle.com/skip-config-parsing";

  public AgentModel {
    Objects.requireNonNull(key);
  }

  /** A model without a known creation time (it loses every directory conflict). */
  public AgentModel(BaseModelKey key, StorageSpec storage, boolean deleting, boolean skipConfigParsing) {
    this(key, storage, deleting, skipConfigParsing, null);
  }

  /** The model as the directory rules see it. */
  public ModelPaths.Claimant claimant() {
    return new ModelPaths.Claimant(key, storage, created);
  }

  /** The view of a BaseModel or ClusterBaseModel. */
  public static AgentModel of(HasMetadata model) {
    Map<String, String> annotations = model.getMetadata().getAnnotations();
    boolean skip = annotations != null && "true".equalsIgnoreCase(annotations.get(SKIP_CONFIG_PARSING));
    StorageSpec storage = switch (model) {
      case BaseModel m -> m.getSpec() == null ? null : m.getSpec().storage();
      case ClusterBaseModel m -> m.getSpec() == null ? null : m.getSpec().storage();
      // An adapter has no config.json of a model to read.
      case FineTunedWeight w -> {
        skip = true;
        yield w.getSpec() == null ? null : w.getSpec().storage();
      }
      default -> throw new IllegalArgumentException("not a base model or fine-tuned weight: " + model.getKind());
    };
    return new AgentModel(BaseModelKey.of(model), storage, model.getMetadata().getDeletionTimestamp() != null, skip,
        ModelPaths.Claimant.created(model.getMetadata().getCreationTimestamp()));
  }

  /** The storage URI, or null. */
  public String storageUri() {
    return storage == null ? null : storage.storageUri();
  }

  /** Where the model's Secret lives: its own namespace, or the agent's for a ClusterBaseModel. */
  public String secretNamespace(String agentNamespace) {
    return key.clusterScoped() ? agentNamespace : key.namespace();
  }

  /**
   * What, when it changes, makes the agent act again: the storage fields it reads and the parsing switch (not the
   * node selection, which is evaluated on every event).
   */
  public String fingerprint() {
    if (storage == null) {
      return "no-storage";
    }
    return String.join("\u0000", String.valueOf(storage.storageUri()), String.valueOf(storage.path()),
        String.valueOf(storage.key()), String.valueOf(storage.parameters() == null ? null
            : new java.util.TreeMap<>(storage.parameters())), Boolean.toString(skipConfigParsing));
  }
}
