package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.api.llmkube.v1alpha1.RefreshPolicy;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.modelsource.RedactedUrl;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A downloaded (remote) Model source: reads its size, ETag and GGUF header once, then every
 * {@code --model-revalidation-interval} compares the source's fingerprint with the cached copy's and decides what
 * {@code refreshPolicy} asks for (SourceDrifted, or a refresh the serving pods pick up).
 */
final class RemoteSourceObserver {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteSourceObserver.class);

  private final OperatorSettings settings;
  private final ModelInspector inspector;
  private final EventRecorder events;
  private final Clock clock;

  RemoteSourceObserver(OperatorSettings settings, ModelInspector inspector, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.inspector = inspector;
    this.events = events;
    this.clock = clock;
  }

  ModelObservation observe(Model model, ModelLayout layout, long generation, ModelStatus prev, String sha,
      boolean gguf) {
    String url = layout.downloads().getFirst().url();
    boolean http = url.startsWith("https://") || url.startsWith("http://");
    String resolved = "Downloaded by the serving pods' init container into " + layout.modelDir();
    if (!settings.inspectModels() || !http) {
      return ModelObservation.ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved);
    }
    Instant now = clock.instant();
    if (!ModelObservation.inspected(prev, layout)) {
      ModelInspector.Inspection seen = inspect(model, url, gguf);
      ModelObservation o = ModelObservation.ready(layout, generation, prev, sha, seen, "WorkloadResolved", resolved);
      return seen.error() == null ? revalidated(o, now, null) : o;
    }
    if (!revalidationDue(prev, now)) {
      return ModelObservation.ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved);
    }
    // Revalidation: the source's fingerprint now against the one recorded for the cached copy.
    SourceFingerprint cached = SourceFingerprint.of(prev);
    ModelInspector.Inspection probe = inspector.remote(url, false);
    if (probe.error() != null) {
      LOG.info("revalidation failed model={}/{} url={} error=\"{}\"", model.getMetadata().getNamespace(),
          model.getMetadata().getName(), RedactedUrl.of(url), probe.error());
      return revalidated(ModelObservation.ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now, null);
    }
    SourceFingerprint current = new SourceFingerprint(probe.etag(), probe.length());
    if (!cached.changedTo(current)) {
      return revalidated(ModelObservation.ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now,
          new ModelObservation.Drift(false, "UpToDate", "The source matches the cached copy (" + current.describe()
              + ")"));
    }
    String change = "the source changed since it was cached (" + cached.describe() + " → " + current.describe() + ")";
    if (model.getSpec().refreshPolicy() == RefreshPolicy.ON_CHANGE) {
      // Record the new fingerprint: serving pods (and a prefetch Job) compare it with the one beside their cached
      // file and download again; services using this Model roll out because their pods carry it.
      ModelInspector.Inspection seen = inspect(model, url, gguf);
      if (seen.error() != null) {
        seen = probe;
      }
      events.normal(model, "SourceRefreshed", change + "; refreshPolicy OnChange: the cached copy is downloaded "
          + "again by the next serving pod");
      return revalidated(ModelObservation.ready(layout, generation, prev, sha, seen, "WorkloadResolved", resolved), now,
          new ModelObservation.Drift(false, "Refreshed", "Re-downloading: " + change));
    }
    if (!driftedBefore(prev)) {
      events.warning(model, "SourceDrifted", change + "; refreshPolicy IfNotPresent keeps serving the cached copy "
          + "(set refreshPolicy: OnChange to download it again)");
    }
    return revalidated(ModelObservation.ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now,
        new ModelObservation.Drift(true, "UpstreamChanged", capitalize(change) + "; refreshPolicy IfNotPresent keeps "
            + "the cached copy"));
  }

  private ModelInspector.Inspection inspect(Model model, String url, boolean gguf) {
    ModelInspector.Inspection seen = inspector.remote(url, gguf);
    if (seen.error() != null) {
      LOG.info("gguf header unavailable model={}/{} url={} error=\"{}\"", model.getMetadata().getNamespace(),
          model.getMetadata().getName(), RedactedUrl.of(url), seen.error());
      events.warning(model, "MetadataUnavailable", "could not read " + RedactedUrl.of(url) + ": " + seen.error()
          + " (the serving pods still download it)");
    }
    return seen;
  }

  private boolean revalidationDue(ModelStatus prev, Instant now) {
    Duration interval = settings.revalidationInterval();
    if (interval.isZero() || SourceFingerprint.of(prev) == null) {
      return false;
    }
    return prev.lastRevalidated() == null || !Instant.parse(prev.lastRevalidated()).plus(interval).isAfter(now);
  }

  /** Whether revalidation applies to this Model, so the controller comes back for it. */
  boolean revalidates(ModelStatus status) {
    return settings.inspectModels() && !settings.revalidationInterval().isZero()
        && SourceFingerprint.of(status) != null && status.cacheKey() != null && !status.cacheKey().isEmpty();
  }

  private static boolean driftedBefore(ModelStatus prev) {
    return prev.conditions() != null && prev.conditions().stream()
        .anyMatch(c -> "SourceDrifted".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static ModelObservation revalidated(ModelObservation o, Instant when, ModelObservation.Drift drift) {
    return o.withRevalidation(when, drift);
  }
}
