package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelFileFormat;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.modelsource.ModelSource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import java.time.Clock;
import java.time.Duration;
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
@Workflow(explicitInvocation = true, dependents = {
    @Dependent(name = "cache-claim", type = SharedCacheClaimDependent.class),
    @Dependent(name = "prefetch-job", type = PrefetchJobDependent.class, dependsOn = "cache-claim")})
public class ModelReconciler implements Reconciler<Model> {
  public static final String NAME = "llmkube-model";
  private static final Logger LOG = LoggerFactory.getLogger(ModelReconciler.class);
  private static final Duration PENDING_RECHECK = Duration.ofSeconds(15);
  private static final String VERIFIED = "HostPathVerified";

  private final OperatorSettings settings;
  private final ModelInspector inspector;
  private final EventRecorder events;
  private final Clock clock;
  private final RemoteSourceObserver remote;
  private final ModelPrefetcher prefetcher;

  public ModelReconciler(OperatorSettings settings, ModelInspector inspector, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.inspector = inspector;
    this.events = events;
    this.clock = clock;
    this.remote = new RemoteSourceObserver(settings, inspector, events, clock);
    this.prefetcher = new ModelPrefetcher(settings, events);
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
      case READY -> remote.revalidates(status) ? control.rescheduleAfter(settings.revalidationInterval()) : control;
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
      case DOWNLOAD -> prefetcher.prefetch(model, context, remote.observe(model, layout, generation, prev, sha, gguf));
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
    ModelInspector.Inspection seen = ModelObservation.inspected(prev, layout) ? null : inspector.local(path, gguf);
    String mounted = "Mounted from the node at " + path;
    if (sha == null) {
      return ModelObservation.ready(layout, generation, prev, null, seen, "HostPath", mounted);
    }
    if (verifiedBefore(prev, generation, layout, sha)) {
      return ModelObservation.ready(layout, generation, prev, sha, seen, VERIFIED, mounted + "; SHA-256 verified");
    }
    String digest = inspector.sha256(path);
    if (digest == null) {
      return ModelObservation.ready(layout, generation, prev, sha, seen, "HostPath",
          mounted + "; the serving pods verify its SHA-256 before the server starts");
    }
    if (!digest.equals(sha)) {
      FieldProblem problem = FieldProblem.fatal("spec.sha256", "ChecksumMismatch", path + " has SHA-256 " + digest
          + ", not the declared " + sha);
      return ModelObservation.ready(layout, generation, prev, digest, seen, "", "")
          .withPhase(ModelPhase.FAILED, "ChecksumMismatch", problem.describe(), problem);
    }
    return ModelObservation.ready(layout, generation, prev, digest, seen, VERIFIED, mounted + "; SHA-256 verified");
  }

  /** Whether this generation's local file was already hashed and matched, so it is not read again. */
  private static boolean verifiedBefore(ModelStatus prev, long generation, ModelLayout layout, String sha) {
    return prev != null && prev.phase() == ModelPhase.READY && sha.equals(prev.sha256())
        && Objects.equals(prev.path(), layout.modelPath()) && prev.conditions() != null
        && prev.conditions().stream().anyMatch(c -> "Available".equals(c.getType()) && VERIFIED.equals(c.getReason())
            && c.getObservedGeneration() != null && c.getObservedGeneration() == generation);
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
