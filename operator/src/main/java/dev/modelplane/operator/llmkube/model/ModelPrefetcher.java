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
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.List;

/**
 * {@code spec.prefetch}: runs the Model's workflow — the namespace's shared cache claim
 * ({@link SharedCacheClaimDependent}) and the prefetch Job for the current source ({@link PrefetchJobDependent}) —
 * deletes the Jobs of earlier sources, and turns the Job's state into the Model's phase.
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
    String ns = model.getMetadata().getNamespace();
    Job desired = PrefetchJobBuilder.build(model, resolved.layout(), settings,
        SourceFingerprint.refreshToken(model.getSpec().refreshPolicy(), resolved.etag(), resolved.contentLength()));
    ResourceID id = ResourceID.fromResource(desired);
    boolean existed = PrefetchJobDependent.current(context, id).isPresent();
    ModelContext.put(context, new ModelContext.Prefetch(ModelStaging.sharedCacheClaim(ns, settings), desired));
    context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    deleteStale(model, id, context);
    if (!existed) {
      events.normal(model, "PrefetchStarted", "Job " + id.getName() + " downloads "
          + resolved.layout().downloads().size() + " file(s) into claim " + ModelStaging.SHARED_CACHE_CLAIM);
    }
    return fromJob(PrefetchJobDependent.current(context, id).orElse(desired), resolved);
  }

  /** The Jobs of earlier sources of this Model (a changed source gets a new Job): deleted with their pods. */
  private static void deleteStale(Model model, ResourceID current, Context<Model> context) {
    for (Job job : context.getSecondaryResources(Job.class)) {
      if (!current.getName().equals(job.getMetadata().getName())
          && model.getMetadata().getName().equals(job.getMetadata().getLabels().get(PrefetchJobBuilder.MODEL_LABEL))
          && job.getMetadata().getDeletionTimestamp() == null) {
        context.getClient().resource(job).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
      }
    }
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
