package dev.modelplane.operator.common;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import java.util.stream.Collectors;

/** What went wrong in a workflow run, unwrapped to the messages a user can act on. */
public final class WorkflowErrors {
  private WorkflowErrors() {
  }

  /** Whether every failed dependent failed on an optimistic-lock conflict (409): run again shortly. */
  public static boolean onlyConflicts(WorkflowReconcileResult result) {
    return result.erroredDependentsExist() && result.getErroredDependents().values().stream()
        .allMatch(WorkflowErrors::isConflict);
  }

  /** Whether a 409 from the API server is anywhere in the cause chain. */
  public static boolean isConflict(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof KubernetesClientException k && k.getCode() == 409) {
        return true;
      }
    }
    return false;
  }

  /** {@code dependent: message; …} for the failed dependents, or null when none failed. */
  public static String describe(WorkflowReconcileResult result) {
    if (!result.erroredDependentsExist()) {
      return null;
    }
    return result.getErroredDependents().entrySet().stream()
        .map(e -> e.getKey().name() + ": " + rootMessage(e.getValue()))
        .collect(Collectors.joining("; "));
  }

  /** The API server's own message when there is one, else the innermost cause's message. */
  public static String rootMessage(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
        return k.getStatus().getMessage();
      }
    }
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
