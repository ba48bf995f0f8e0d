package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.List;

/**
 * {@code spec.prefetch}: makes sure the namespace's shared cache claim and the Model's prefetch Job exist (a Job per
 * source fingerprint; older ones are deleted) and turns the Job's state into the Model's phase.
 */
final class ModelPrefetcher {
  private final OperatorSettings settings;
  private final EventRecorder events;

  ModelPrefetcher(OperatorSettings settings, EventRecorder events) {
    this.settings = settings;
    this.events = events;
  }

  /** With {@code spec.prefetch}: makes sure the cache claim and the prefetch Job exist and reads the Job's state. */
  ModelObservation prefetch(Model model, Context<Model> context, ModelObservation resolved) {
    if (!Boolean.TRUE.equals(model.getSpec().prefetch()) || resolved.phase() != ModelPhase.READY) {
      return resolved;
    }
    OperatorSettings.ModelCacheSettings cache = settings.modelCache();
    if (!cache.enabled() || cache.mode() != OperatorSettings.CacheMode.SHARED) {
      if (resolved.previous() == null || !"PrefetchUnavailable".equals(resolved.previous().conditions().stream()
          .filter(c -> "Available".equals(c.getType())).map(c -> c.getReason()).findFirst().orElse(null))) {
        events.warning(model, "PrefetchUnavailable", "spec.prefetch needs the operator's shared model cache "
            + "(cache enabled, --model-cache-mode shared); the serving pods download the model instead");
      }
      return resolved.withPhase(ModelPhase.READY, "PrefetchUnavailable", "spec.prefetch ignored: no shared "
          + "model cache; " + resolved.message(), null);
    }
    KubernetesClient client = context.getClient();
    String ns = model.getMetadata().getNamespace();
    if (client.persistentVolumeClaims().inNamespace(ns).withName(ModelStaging.SHARED_CACHE_CLAIM).get() == null) {
      try {
        client.resource(ModelStaging.sharedCacheClaim(ns, settings)).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
    Job desired = PrefetchJobBuilder.build(model, resolved.layout(), settings,
        SourceFingerprint.refreshToken(model.getSpec().refreshPolicy(), resolved.etag(), resolved.contentLength()));
    String name = desired.getMetadata().getName();
    for (Job stale : client.batch().v1().jobs().inNamespace(ns)
        .withLabel(PrefetchJobBuilder.MODEL_LABEL, model.getMetadata().getName())
        .withLabel(PrefetchJobBuilder.COMPONENT_LABEL, PrefetchJobBuilder.COMPONENT).list().getItems()) {
      if (!stale.getMetadata().getName().equals(name)) {
        client.resource(stale).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
      }
    }
    Job job = client.batch().v1().jobs().inNamespace(ns).withName(name).get();
    if (job == null) {
      job = client.resource(desired).create();
      events.normal(model, "PrefetchStarted", "Job " + name + " downloads " + resolved.layout().downloads().size()
          + " file(s) into claim " + ModelStaging.SHARED_CACHE_CLAIM);
    }
    return fromJob(job, resolved);
  }

  /** The Model's phase from its prefetch Job: Complete → Ready, Failed → Failed, otherwise Downloading. */
  static ModelObservation fromJob(Job job, ModelObservation resolved) {
    String name = job.getMetadata().getName();
    List<JobCondition> conditions = job.getStatus() == null || job.getStatus().getConditions() == null ? List.of()
        : job.getStatus().getConditions();
    for (JobCondition c : conditions) {
      if ("True".equals(c.getStatus()) && "Complete".equals(c.getType())) {
        return resolved.withPhase(ModelPhase.READY, "Prefetched", "Job " + name + " downloaded the model into "
            + "claim " + ModelStaging.SHARED_CACHE_CLAIM + " at " + resolved.layout().modelDir(), null);
      }
      if ("True".equals(c.getStatus()) && "Failed".equals(c.getType())) {
        String why = c.getMessage() == null || c.getMessage().isBlank() ? c.getReason() : c.getMessage();
        FieldProblem problem = FieldProblem.fatal("spec.source", "PrefetchFailed", "prefetch Job " + name
            + " failed: " + why + " (kubectl logs job/" + name + ")");
        return resolved.withPhase(ModelPhase.FAILED, "PrefetchFailed", problem.describe(), problem);
      }
    }
    return resolved.withPhase(ModelPhase.DOWNLOADING, "Prefetching", "Job " + name + " is downloading "
        + resolved.layout().downloads().size() + " file(s) into claim " + ModelStaging.SHARED_CACHE_CLAIM, null);
  }

}
