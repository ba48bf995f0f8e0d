package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.FailureInfo;
import dev.modelplane.api.ome.v1beta1.FailureReason;
import dev.modelplane.api.ome.v1beta1.ModelCopies;
import dev.modelplane.api.ome.v1beta1.ModelRevisionStates;
import dev.modelplane.api.ome.v1beta1.ModelState;
import dev.modelplane.api.ome.v1beta1.ModelStatus;
import dev.modelplane.api.ome.v1beta1.TransitionStatus;
import java.time.Instant;
import java.util.List;

/**
 * {@code status.modelStatus} over every component's pods: the worst state wins (a pod that failed to load blocks
 * the rollout, a loading or pending pod keeps it in progress), and the copies count the ready pods that serve the
 * model (engine and decoder; a router holds no model).
 */
final class ModelStatusAggregation {
  private ModelStatusAggregation() {
  }

  static ModelStatus of(List<ComponentHealth> components, boolean ready, Instant now) {
    PodLoadStates.PodLoad failed = null;
    String failedComponent = null;
    boolean anyPods = false;
    boolean allLoaded = true;
    boolean anyLoading = false;
    int copies = 0;
    int failedCopies = 0;
    for (ComponentHealth c : components) {
      boolean servesModel = !"router".equals(c.component());
      for (var pod : c.pods()) {
        anyPods = true;
        PodLoadStates.PodLoad load = PodLoadStates.of(pod, c.mainContainer());
        switch (load.state()) {
          case FAILED_TO_LOAD -> {
            failedCopies++;
            allLoaded = false;
            if (failed == null) {
              failed = load;
              failedComponent = c.component();
            }
          }
          case LOADED -> copies += servesModel ? 1 : 0;
          case LOADING -> {
            anyLoading = true;
            allLoaded = false;
          }
          default -> allLoaded = false;
        }
      }
    }
    if (failed != null) {
      FailureInfo info = new FailureInfo(failed.pod(), FailureReason.ModelLoadFailed, failedComponent + ": "
          + failed.message(), null, now.toString(), failed.exitCode());
      return new ModelStatus(TransitionStatus.BLOCKED_BY_FAILED_LOAD,
          new ModelRevisionStates(copies > 0 ? ModelState.LOADED : ModelState.FAILED_TO_LOAD,
              ModelState.FAILED_TO_LOAD), info, new ModelCopies(failedCopies, copies));
    }
    if (ready && anyPods && allLoaded) {
      return new ModelStatus(TransitionStatus.UP_TO_DATE,
          new ModelRevisionStates(ModelState.LOADED, ModelState.LOADED), null, new ModelCopies(0, copies));
    }
    ModelState target = anyLoading ? ModelState.LOADING : ModelState.PENDING;
    return new ModelStatus(TransitionStatus.IN_PROGRESS,
        new ModelRevisionStates(copies > 0 ? ModelState.LOADED : ModelState.PENDING, target), null,
        new ModelCopies(0, copies));
  }
}
