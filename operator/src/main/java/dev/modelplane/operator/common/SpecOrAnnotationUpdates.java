package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The updates of a primary resource its controller reconciles, for a controller that reads annotations as settings
 * (with generation-aware processing off, which would drop them): a new generation, a deletion mark, a change of
 * finalizers, or a change of any annotation but kubectl's last-applied copy. Status writes, which change none of
 * these, are not reconciled.
 */
public final class SpecOrAnnotationUpdates implements OnUpdateFilter<HasMetadata> {
  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  @Override
  public boolean accept(HasMetadata newer, HasMetadata older) {
    var now = newer.getMetadata();
    var was = older.getMetadata();
    return !Objects.equals(now.getGeneration(), was.getGeneration()) || newer.isMarkedForDeletion()
        || !Objects.equals(now.getFinalizers(), was.getFinalizers())
        || !settings(now.getAnnotations()).equals(settings(was.getAnnotations()));
  }

  private static Map<String, String> settings(Map<String, String> annotations) {
    Map<String, String> out = new HashMap<>(annotations == null ? Map.of() : annotations);
    out.remove(LAST_APPLIED);
    return out;
  }
}
