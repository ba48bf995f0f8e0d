package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.llmkube.IsvcLabels;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prefetch Job of a Model with {@code spec.prefetch: true}: the same cache-prep and downloader containers as the
 * serving pods' init containers (so the layout {@code /models/<cacheKey>/<file>} and the checksum check are the
 * same), run once in the namespace's shared cache claim, with the operator's restricted pod security. A serving pod
 * that starts later finds the files and skips the download. The Job is owned by the Model; its name carries the
 * cache key, so a new source gets a new Job.
 */
public final class PrefetchJobBuilder {
  /** Label naming the Model a prefetch Job belongs to. */
  public static final String MODEL_LABEL = IsvcLabels.MODEL;
  /** Label marking prefetch Jobs. */
  public static final String COMPONENT_LABEL = "app.kubernetes.io/component";
  public static final String COMPONENT = "model-prefetch";
  static final int BACKOFF_LIMIT = 3;

  private PrefetchJobBuilder() {
  }

  /**
   * {@code <model>-prefetch-<first 10 of the cache key>}, the model part cut so the name stays a DNS label; with a
   * refresh token the ten characters come from the cache key and the token, so a changed source gets a new Job.
   */
  public static String jobName(String modelName, String cacheKey, String refreshToken) {
    String key = refreshToken == null ? cacheKey : CacheKey.of(cacheKey + "|" + refreshToken);
    String suffix = "-prefetch-" + key.substring(0, Math.min(10, key.length()));
    String base = modelName.length() + suffix.length() > 63 ? modelName.substring(0, 63 - suffix.length())
        : modelName;
    while (base.endsWith("-") || base.endsWith(".")) {
      base = base.substring(0, base.length() - 1);
    }
    return base + suffix;
  }

  /**
   * @param refreshToken the source fingerprint for a {@code refreshPolicy: OnChange} Model (see
   *     {@link dev.modelplane.operator.modelsource.SourceFingerprint#refreshToken}), or null
   */
  public static Job build(Model model, ModelLayout layout, OperatorSettings settings, String refreshToken) {
    String ns = model.getMetadata().getNamespace();
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(MODEL_LABEL, model.getMetadata().getName());
    labels.put(COMPONENT_LABEL, COMPONENT);
    labels.put(OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE);
    String image = settings.initContainerImage();
    Job job = new JobBuilder()
        .withNewMetadata()
          .withName(jobName(model.getMetadata().getName(), layout.cacheKey(), refreshToken))
          .withNamespace(ns)
          .withLabels(labels)
          .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(model.getApiVersion())
              .withKind(model.getKind()).withName(model.getMetadata().getName())
              .withUid(model.getMetadata().getUid()).withBlockOwnerDeletion(true).withController(true).build())
        .endMetadata()
        .withNewSpec()
          .withBackoffLimit(BACKOFF_LIMIT)
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .withRestartPolicy("Never")
              .withTolerations(model.getSpec().prefetchTolerations() == null ? List.of()
                  : model.getSpec().prefetchTolerations())
              .withInitContainers(ModelStaging.cachePrep(image))
              .withContainers(ModelStaging.downloader(image, model.getSpec(), layout,
                  ModelStaging.downloadsOf(layout, model.getSpec().sha256(), refreshToken),
                  java.util.Collections.singletonList(model.getSpec().sourceSecretRef())))
              .withVolumes(new VolumeBuilder().withName(ModelStaging.CACHE_VOLUME)
                  .withNewPersistentVolumeClaim().withClaimName(ModelStaging.SHARED_CACHE_CLAIM)
                  .endPersistentVolumeClaim().build())
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
    settings.securityDefaults().harden(job.getSpec().getTemplate().getSpec(), Set.of());
    return job;
  }
}
