package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/**
 * The one place a Model's status is built: phase, conditions Available, Progressing and Degraded (with the
 * generation, transition time moved only on change) and SourceDrifted (once a revalidation ran), the cache key and
 * in-pod path, staged files, size, source fingerprint and GGUF metadata. {@code lastUpdated} moves only when
 * something else changed.
 */
public final class ModelStatusAggregator {
  private ModelStatusAggregator() {
  }

  public static ModelStatus aggregate(ModelObservation o, Instant now) {
    ModelStatus prev = o.previous();
    long gen = o.generation();
    List<Condition> c = prev == null ? List.of() : prev.conditions();
    ModelPhase phase = o.phase();
    c = phase == ModelPhase.READY
        ? Conditions.set(c, "Available", Conditions.TRUE, o.reason(), o.message(), gen, now)
        : Conditions.set(c, "Available", Conditions.FALSE, o.reason(), o.message(), gen, now);
    c = switch (phase) {
      case PENDING, DOWNLOADING, COPYING -> Conditions.set(c, "Progressing", Conditions.TRUE, o.reason(),
          o.message(), gen, now);
      case READY, FAILED -> Conditions.set(c, "Progressing", Conditions.FALSE, o.reason(), "", gen, now);
    };
    c = o.problem() != null
        ? Conditions.set(c, "Degraded", Conditions.TRUE, o.problem().reason(), o.problem().describe(), gen, now)
        : Conditions.set(c, "Degraded", Conditions.FALSE, "AsExpected", "", gen, now);
    if (o.drift() != null) {
      c = Conditions.set(c, "SourceDrifted", o.drift().drifted() ? Conditions.TRUE : Conditions.FALSE,
          o.drift().reason(), o.drift().message(), gen, now);
    }
    ModelLayout layout = o.layout();
    String revalidated = o.revalidated() != null ? o.revalidated().truncatedTo(ChronoUnit.SECONDS).toString()
        : prev == null ? null : prev.lastRevalidated();
    ModelStatus next = new ModelStatus(
        phase,
        c,
        o.contentLength() == null ? null : humanSize(o.contentLength()),
        layout == null ? null : layout.modelPath(),
        layout == null ? null : layout.cacheKey(),
        o.sha256(),
        layout == null || layout.stagedFiles().isEmpty() ? null : layout.stagedFiles(),
        null,
        o.gguf(),
        o.etag(),
        o.contentLength(),
        revalidated,
        prev == null ? null : prev.lastUpdated());
    if (prev != null && stamp(prev, null).equals(stamp(next, null))) {
      return prev;
    }
    return stamp(next, now.truncatedTo(ChronoUnit.SECONDS).toString());
  }

  private static ModelStatus stamp(ModelStatus s, String time) {
    return new ModelStatus(s.phase(), s.conditions(), s.size(), s.path(), s.cacheKey(), s.sha256(), s.stagedFiles(),
        s.acceleratorReady(), s.gguf(), s.sourceETag(), s.sourceContentLength(), s.lastRevalidated(), time);
  }

  /** Bytes as {@code 4.92 GiB}. */
  public static String humanSize(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.2f %s", value, units[unit]);
  }
}
