package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelFileFormat;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.api.llmkube.v1alpha1.RefreshPolicy;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.modelsource.ModelSource;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles LLMKube Models: parses the source, decides the phase by source kind, and reads what it cheaply can
 * about the file (size, ETag, GGUF header by HTTP range). Downloads happen in the serving pods' init containers, so
 * a remote Model is Ready at once, as upstream.
 *
 * <ul>
 *   <li>{@code pvc://}: Ready once the claim is Bound, Pending (rechecked every 15 s) before.</li>
 *   <li>Hugging Face id without files: Ready, resolved by the runtime; no cache key.</li>
 *   <li>{@code https://}, {@code hf://} with files, {@code s3://}: Ready, with the cache key; the GGUF header is read
 *       once per source. With {@code spec.prefetch}: a prefetch Job downloads into the namespace's shared cache
 *       claim first — Downloading while it runs, Ready when it succeeded, Failed when it gave up.</li>
 *   <li>Local path: Failed unless under {@code --allowed-host-path-roots}; else Ready, with metadata when the
 *       operator can read the file itself. With {@code spec.sha256}, a file the operator can read is hashed once per
 *       generation (Failed/ChecksumMismatch when it differs); the serving pods check it again before the server
 *       starts, which also covers files only the nodes have.</li>
 * </ul>
 */
@ControllerConfiguration(name = ModelReconciler.NAME)
public class ModelReconciler implements Reconciler<Model> {
  public static final String NAME = "llmkube-model";
  private static final Logger LOG = LoggerFactory.getLogger(ModelReconciler.class);
  private static final Duration PENDING_RECHECK = Duration.ofSeconds(15);
  private static final Duration PREFETCH_RECHECK = Duration.ofSeconds(3);
  private static final String VERIFIED = "HostPathVerified";

  private final OperatorSettings settings;
  private final ModelInspector inspector;
  private final EventRecorder events;
  private final Clock clock;

  public ModelReconciler(OperatorSettings settings, ModelInspector inspector, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.inspector = inspector;
    this.events = events;
    this.clock = clock;
  }

  @Override
  public UpdateControl<Model> reconcile(Model model, Context<Model> context) {
    ModelObservation observation = observe(model, context);
    ModelStatus status = ModelStatusAggregator.aggregate(observation, clock.instant());
    ModelStatus previous = model.getStatus();
    if (observation.problem() != null && (previous == null || previous.phase() != ModelPhase.FAILED
        || !Objects.equals(degradedMessage(previous), observation.problem().describe()))) {
      events.warning(model, observation.problem().reason(), observation.problem().describe());
    }
    if (!status.equals(previous)) {
      LOG.info("status model={}/{} phase={} reason={} cacheKey={}", model.getMetadata().getNamespace(),
          model.getMetadata().getName(), status.phase(), observation.reason(), status.cacheKey());
      StatusWriter.write(model, status, Model::new, context, settings.useSsa());
    }
    UpdateControl<Model> control = UpdateControl.noUpdate();
    return switch (status.phase()) {
      case PENDING -> control.rescheduleAfter(PENDING_RECHECK);
      case DOWNLOADING -> control.rescheduleAfter(PREFETCH_RECHECK);
      case READY -> revalidates(status) ? control.rescheduleAfter(settings.revalidationInterval()) : control;
      default -> control;
    };
  }

  ModelObservation observe(Model model, Context<Model> context) {
    long generation = model.getMetadata().getGeneration() == null ? 0 : model.getMetadata().getGeneration();
    ModelStatus prev = model.getStatus();
    String sha = model.getSpec().sha256() == null ? null : model.getSpec().sha256().toLowerCase(Locale.ROOT);
    ModelLayout layout;
    try {
      layout = ModelLayout.of(model, settings.huggingFaceEndpoint());
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      String field = message.startsWith("spec.") ? message.substring(0, message.indexOf(':')) : "spec.source";
      String text = message.startsWith("spec.") ? message.substring(message.indexOf(':') + 2) : message;
      FieldProblem problem = FieldProblem.fatal(field, "InvalidSource", text);
      return new ModelObservation(generation, prev, null, ModelPhase.FAILED, "InvalidSource", problem.describe(),
          problem, null, null, null, sha);
    }
    boolean gguf = model.getSpec().format() == null || model.getSpec().format() == ModelFileFormat.GGUF;
    return switch (layout.staging()) {
      case PVC -> pvc(model, context, layout, generation, prev, sha);
      case RUNTIME -> new ModelObservation(generation, prev, layout, ModelPhase.READY, "RuntimeResolved",
          "The runtime fetches " + layout.modelPath() + " itself", null, null, null, null, sha);
      case HOST_PATH -> local(model, layout, generation, prev, sha, gguf);
      case DOWNLOAD -> prefetch(model, context, remote(model, layout, generation, prev, sha, gguf));
    };
  }

  private ModelObservation pvc(Model model, Context<Model> context, ModelLayout layout, long generation,
      ModelStatus prev, String sha) {
    PersistentVolumeClaim claim = context.getClient().persistentVolumeClaims()
        .inNamespace(model.getMetadata().getNamespace()).withName(layout.sourceClaim()).get();
    if (claim == null) {
      return new ModelObservation(generation, prev, layout, ModelPhase.PENDING, "ClaimNotFound",
          "PersistentVolumeClaim " + layout.sourceClaim() + " not found", null, null, null, null, sha);
    }
    String phase = claim.getStatus() == null ? null : claim.getStatus().getPhase();
    if (!"Bound".equals(phase)) {
      return new ModelObservation(generation, prev, layout, ModelPhase.PENDING, "ClaimNotBound",
          "PersistentVolumeClaim " + layout.sourceClaim() + " is " + (phase == null ? "not bound" : phase), null,
          null, null, null, sha);
    }
    return new ModelObservation(generation, prev, layout, ModelPhase.READY, "ClaimBound",
        "Served from PersistentVolumeClaim " + layout.sourceClaim(), null, null, null, null, sha);
  }

  private ModelObservation local(Model model, ModelLayout layout, long generation, ModelStatus prev, String sha,
      boolean gguf) {
    String path = ((ModelSource.LocalPath) layout.source()).path();
    if (!allowed(path)) {
      FieldProblem problem = FieldProblem.fatal("spec.source", "HostPathNotAllowed", path + " is not under an "
          + "allowed host path root (operator flag --allowed-host-path-roots: "
          + (settings.allowedHostPathRoots().isEmpty() ? "none" : String.join(",", settings.allowedHostPathRoots()))
          + ")");
      return new ModelObservation(generation, prev, layout, ModelPhase.FAILED, "HostPathNotAllowed",
          problem.describe(), problem, null, null, null, sha);
    }
    ModelInspector.Inspection seen = inspected(prev, layout) ? null : inspector.local(path, gguf);
    String mounted = "Mounted from the node at " + path;
    if (sha == null) {
      return ready(layout, generation, prev, null, seen, "HostPath", mounted);
    }
    if (verifiedBefore(prev, generation, layout, sha)) {
      return ready(layout, generation, prev, sha, seen, VERIFIED, mounted + "; SHA-256 verified");
    }
    String digest = inspector.sha256(path);
    if (digest == null) {
      return ready(layout, generation, prev, sha, seen, "HostPath",
          mounted + "; the serving pods verify its SHA-256 before the server starts");
    }
    if (!digest.equals(sha)) {
      FieldProblem problem = FieldProblem.fatal("spec.sha256", "ChecksumMismatch", path + " has SHA-256 " + digest
          + ", not the declared " + sha);
      return withPhase(ready(layout, generation, prev, digest, seen, "", ""), ModelPhase.FAILED, "ChecksumMismatch",
          problem.describe(), problem);
    }
    return ready(layout, generation, prev, digest, seen, VERIFIED, mounted + "; SHA-256 verified");
  }

  /** Whether this generation's local file was already hashed and matched, so it is not read again. */
  private static boolean verifiedBefore(ModelStatus prev, long generation, ModelLayout layout, String sha) {
    return prev != null && prev.phase() == ModelPhase.READY && sha.equals(prev.sha256())
        && Objects.equals(prev.path(), layout.modelPath()) && prev.conditions() != null
        && prev.conditions().stream().anyMatch(c -> "Available".equals(c.getType()) && VERIFIED.equals(c.getReason())
            && c.getObservedGeneration() != null && c.getObservedGeneration() == generation);
  }

  private ModelObservation remote(Model model, ModelLayout layout, long generation, ModelStatus prev, String sha,
      boolean gguf) {
    String url = layout.downloads().getFirst().url();
    boolean http = url.startsWith("https://") || url.startsWith("http://");
    String resolved = "Downloaded by the serving pods' init container into " + layout.modelDir();
    if (!settings.inspectModels() || !http) {
      return ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved);
    }
    Instant now = clock.instant();
    if (!inspected(prev, layout)) {
      ModelInspector.Inspection seen = inspect(model, url, gguf);
      ModelObservation o = ready(layout, generation, prev, sha, seen, "WorkloadResolved", resolved);
      return seen.error() == null ? revalidated(o, now, null) : o;
    }
    if (!revalidationDue(prev, now)) {
      return ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved);
    }
    // Revalidation: the source's fingerprint now against the one recorded for the cached copy.
    SourceFingerprint cached = SourceFingerprint.of(prev);
    ModelInspector.Inspection probe = inspector.remote(url, false);
    if (probe.error() != null) {
      LOG.info("revalidation failed model={}/{} url={} error=\"{}\"", model.getMetadata().getNamespace(),
          model.getMetadata().getName(), url, probe.error());
      return revalidated(ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now, null);
    }
    SourceFingerprint current = new SourceFingerprint(probe.etag(), probe.length());
    if (!cached.changedTo(current)) {
      return revalidated(ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now,
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
      return revalidated(ready(layout, generation, prev, sha, seen, "WorkloadResolved", resolved), now,
          new ModelObservation.Drift(false, "Refreshed", "Re-downloading: " + change));
    }
    if (!driftedBefore(prev)) {
      events.warning(model, "SourceDrifted", change + "; refreshPolicy IfNotPresent keeps serving the cached copy "
          + "(set refreshPolicy: OnChange to download it again)");
    }
    return revalidated(ready(layout, generation, prev, sha, null, "WorkloadResolved", resolved), now,
        new ModelObservation.Drift(true, "UpstreamChanged", capitalize(change) + "; refreshPolicy IfNotPresent keeps "
            + "the cached copy"));
  }

  private ModelInspector.Inspection inspect(Model model, String url, boolean gguf) {
    ModelInspector.Inspection seen = inspector.remote(url, gguf);
    if (seen.error() != null) {
      LOG.info("gguf header unavailable model={}/{} url={} error=\"{}\"", model.getMetadata().getNamespace(),
          model.getMetadata().getName(), url, seen.error());
      events.warning(model, "MetadataUnavailable", "could not read " + url + ": " + seen.error()
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
  private boolean revalidates(ModelStatus status) {
    return settings.inspectModels() && !settings.revalidationInterval().isZero()
        && SourceFingerprint.of(status) != null && status.cacheKey() != null && !status.cacheKey().isEmpty();
  }

  private static boolean driftedBefore(ModelStatus prev) {
    return prev.conditions() != null && prev.conditions().stream()
        .anyMatch(c -> "SourceDrifted".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static ModelObservation revalidated(ModelObservation o, Instant when, ModelObservation.Drift drift) {
    return new ModelObservation(o.generation(), o.previous(), o.layout(), o.phase(), o.reason(), o.message(),
        o.problem(), o.gguf(), o.contentLength(), o.etag(), o.sha256(), when, drift);
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** With {@code spec.prefetch}: makes sure the cache claim and the prefetch Job exist and reads the Job's state. */
  private ModelObservation prefetch(Model model, Context<Model> context, ModelObservation resolved) {
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
      return withPhase(resolved, ModelPhase.READY, "PrefetchUnavailable", "spec.prefetch ignored: no shared "
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
        return withPhase(resolved, ModelPhase.READY, "Prefetched", "Job " + name + " downloaded the model into "
            + "claim " + ModelStaging.SHARED_CACHE_CLAIM + " at " + resolved.layout().modelDir(), null);
      }
      if ("True".equals(c.getStatus()) && "Failed".equals(c.getType())) {
        String why = c.getMessage() == null || c.getMessage().isBlank() ? c.getReason() : c.getMessage();
        FieldProblem problem = FieldProblem.fatal("spec.source", "PrefetchFailed", "prefetch Job " + name
            + " failed: " + why + " (kubectl logs job/" + name + ")");
        return withPhase(resolved, ModelPhase.FAILED, "PrefetchFailed", problem.describe(), problem);
      }
    }
    return withPhase(resolved, ModelPhase.DOWNLOADING, "Prefetching", "Job " + name + " is downloading "
        + resolved.layout().downloads().size() + " file(s) into claim " + ModelStaging.SHARED_CACHE_CLAIM, null);
  }

  private static ModelObservation withPhase(ModelObservation o, ModelPhase phase, String reason, String message,
      FieldProblem problem) {
    return new ModelObservation(o.generation(), o.previous(), o.layout(), phase, reason, message, problem, o.gguf(),
        o.contentLength(), o.etag(), o.sha256(), o.revalidated(), o.drift());
  }

  private static ModelObservation ready(ModelLayout layout, long generation, ModelStatus prev, String sha,
      ModelInspector.Inspection seen, String reason, String message) {
    GgufMetadata gguf = seen != null ? seen.gguf() : prev == null ? null : prev.gguf();
    Long length = seen != null ? seen.length() : prev == null ? null : prev.sourceContentLength();
    String etag = seen != null ? seen.etag() : prev == null ? null : prev.sourceETag();
    return new ModelObservation(generation, prev, layout, ModelPhase.READY, reason, message, null, gguf, length,
        etag, sha);
  }

  /** Whether the previous status already describes this source (same cache key or path, metadata present). */
  private static boolean inspected(ModelStatus prev, ModelLayout layout) {
    return prev != null && Objects.equals(prev.path(), layout.modelPath())
        && Objects.equals(prev.cacheKey(), layout.cacheKey())
        && (prev.gguf() != null || prev.sourceContentLength() != null);
  }

  boolean allowed(String path) {
    for (String root : settings.allowedHostPathRoots()) {
      String r = root.endsWith("/") ? root : root + "/";
      if (path.startsWith(r) || path.equals(root)) {
        return true;
      }
    }
    return false;
  }

  private static String degradedMessage(ModelStatus status) {
    var c = dev.modelplane.operator.common.Conditions.find(status.conditions(), "Degraded");
    return c == null ? null : c.getMessage();
  }
}
