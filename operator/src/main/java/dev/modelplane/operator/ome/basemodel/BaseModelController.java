package dev.modelplane.operator.ome.basemodel;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.ModelStatusSpec;
import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.modelsource.ModelMetadata;
import dev.modelplane.operator.modelsource.ModelMetadataPatch;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.BaseModelValidator;
import dev.modelplane.operator.ome.storage.ModelPaths;
import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles what the model agents place on nodes — BaseModels, ClusterBaseModels and FineTunedWeights (one
 * subclass each): observe the agents' per-node reports → validate the storage → fill a base model's empty spec
 * metadata from what a node downloaded → record status. The agents do the downloads; this controller holds the
 * finalizer so a deleted model waits until every agent has removed its files, label and report, and drops the
 * reports of deleted nodes.
 *
 * @param <R> BaseModel, ClusterBaseModel or FineTunedWeight
 */
public abstract class BaseModelController<R extends CustomResource<?, ModelStatusSpec>>
    implements Reconciler<R>, Cleaner<R> {
  private static final Logger LOG = LoggerFactory.getLogger(BaseModelController.class);
  /** Deletion waits for the agents; their ConfigMap updates wake it earlier. */
  private static final Duration CLEANUP_RECHECK = Duration.ofSeconds(30);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Clock clock;
  private final Class<R> kind;
  private final Supplier<R> empty;
  private final ModelPaths paths;
  /** Per model uid, the nodes a deletion already announced it stopped waiting for. */
  private final Map<String, java.util.Set<String>> givenUp = new java.util.concurrent.ConcurrentHashMap<>();

  protected BaseModelController(OperatorSettings settings, EventRecorder events, Clock clock, Class<R> kind,
      Supplier<R> empty) {
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.kind = kind;
    this.empty = empty;
    this.paths = settings.modelStorage().paths();
  }

  private boolean clusterScoped() {
    return !io.fabric8.kubernetes.api.model.Namespaced.class.isAssignableFrom(kind);
  }

  /** Whether a report key names an object of this controller's kind. */
  private boolean mine(BaseModelKey key) {
    return key.fineTunedWeight() == FineTunedWeight.class.equals(kind) && key.clusterScoped() == clusterScoped();
  }

  /** The object's storage problems (a subclass adds its own). */
  protected List<FieldProblem> validate(R model, BaseModelKey key) {
    return model.getSpec() instanceof BaseModelSpec spec ? BaseModelValidator.validate(spec, key.clusterScoped())
        : List.of();
  }

  /**
   * The spec's problems and, when there are none, the node directory's ({@link ModelPaths}: outside the roots, or
   * overlapping another model's).
   */
  private List<FieldProblem> problems(R model, BaseModelKey key, Context<R> context) {
    List<FieldProblem> problems = validate(model, key);
    if (problems.stream().anyMatch(FieldProblem::fatal)) {
      return problems;
    }
    ModelPaths.Decision decision = paths.decide(ModelPaths.Claimant.of(model), PathClaims.all(context));
    if (decision instanceof ModelPaths.Decision.Refused refused) {
      List<FieldProblem> all = new java.util.ArrayList<>(problems);
      all.addFirst(FieldProblem.fatal(refused.field(), refused.reason(), refused.message()));
      return all;
    }
    return problems;
  }

  @Override
  public List<EventSource<?, R>> prepareEventSources(EventSourceContext<R> context) {
    java.util.function.Predicate<BaseModelKey> mine = this::mine;
    var configMaps = NodeReportSources.configMaps(context, kind, mine, settings.modelAgentNamespace());
    var nodes = NodeReportSources.nodes(context, kind, mine, configMaps, settings.modelAgentNamespace());
    List<EventSource<?, R>> sources = new java.util.ArrayList<>(List.of(configMaps, nodes));
    sources.addAll(PathClaims.sources(context, kind, paths, settings.namespaces()));
    return sources;
  }

  @Override
  public UpdateControl<R> reconcile(R model, Context<R> context) {
    BaseModelKey key = BaseModelKey.of(model);
    NodeReportSources.Seen seen = NodeReportSources.read(context, key);
    List<FieldProblem> problems = problems(model, key, context);
    dropOrphans(seen.orphans(), context);
    fillMetadata(model, key, seen.reports(), context);
    record(model, key, seen.reports(), problems, context);
    return UpdateControl.noUpdate();
  }

  /** The ConfigMaps of deleted nodes: their reports no longer count, and nobody else removes them. */
  private void dropOrphans(List<ConfigMap> orphans, Context<R> context) {
    for (ConfigMap cm : orphans) {
      LOG.info("node gone configmap={}/{} reports={}", cm.getMetadata().getNamespace(), cm.getMetadata().getName(),
          cm.getData() == null ? 0 : cm.getData().size());
      context.getClient().resource(cm).delete();
    }
  }

  /**
   * Fills the spec fields the user left empty from the metadata the first ready node (by name) read from its
   * copy — unless the model opts out with {@code ome.oracle.com/skip-config-parsing: "true"}.
   */
  private void fillMetadata(R model, BaseModelKey key, Map<String, NodeReport> reports, Context<R> context) {
    if (!(model.getSpec() instanceof BaseModelSpec spec)
        || ModelMetadataPatch.skipsConfigParsing(model.getMetadata().getAnnotations())) {
      return;
    }
    NodeReport source = new TreeMap<>(reports).values().stream()
        .filter(r -> r.ready() && r.config() != null && r.config().isObject()).findFirst().orElse(null);
    if (source == null) {
      return;
    }
    ModelMetadata metadata;
    try {
      metadata = JSON.treeToValue(source.config(), ModelMetadata.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      LOG.warn("unreadable metadata model={} error=\"{}\"", key, e.getMessage());
      return;
    }
    ObjectNode fill = ModelMetadataPatch.fillEmpty(spec, metadata);
    if (fill.isEmpty()) {
      return;
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.set("spec", fill);
    try {
      context.getClient().resources(kind).inNamespace(model.getMetadata().getNamespace())
          .withName(model.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      LOG.info("metadata filled model={} fields={}", key, String.join(",", fieldNames(fill)));
      events.normal(model, "MetadataFilled", "Filled " + String.join(", ", fieldNames(fill))
          + " from the files the model agent downloaded");
    } catch (KubernetesClientException e) {
      LOG.warn("metadata fill failed model={} error=\"{}\"", key, e.getMessage());
    }
  }

  private static List<String> fieldNames(ObjectNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Status from the reports, Events for new problems and newly failed nodes, written when it changed. */
  private void record(R model, BaseModelKey key, Map<String, NodeReport> reports, List<FieldProblem> problems,
      Context<R> context) {
    ModelStatusSpec previous = model.getStatus();
    long generation = model.getMetadata().getGeneration() == null ? 0 : model.getMetadata().getGeneration();
    ModelStatusSpec status = BaseModelStatusAggregator.aggregate(generation, previous, reports, problems,
        clock.instant(), provided(ModelPaths.Claimant.of(model).storage()));
    announce(model, previous, status, reports, problems);
    if (!status.equals(previous)) {
      LOG.info("status model={} state={} ready={} failed={} reporting={}", key, status.state(),
          status.nodesReady().size(), status.nodesFailed().size(), reports.size());
      StatusWriter.write(model, status, empty, context, settings.useSsa());
    }
  }

  /** Whether the storage is a {@code vendor://} URI, whose files come with the serving image. */
  private static boolean provided(StorageSpec storage) {
    try {
      return storage != null && storage.storageUri() != null && BaseModelValidator.handling(StorageUri.parse(
          storage.storageUri(), BaseModelValidator.URI_FIELD)) == BaseModelValidator.Handling.PROVIDED;
    } catch (StorageUriException e) {
      return false;
    }
  }

  private void announce(R model, ModelStatusSpec previous, ModelStatusSpec status, Map<String, NodeReport> reports,
      List<FieldProblem> problems) {
    String before = degradedMessage(previous);
    for (FieldProblem p : problems) {
      if (before == null || !before.contains(p.describe())) {
        events.warning(model, p.reason(), p.describe());
      }
    }
    List<String> failedBefore = previous == null || previous.nodesFailed() == null ? List.of()
        : previous.nodesFailed();
    for (String node : status.nodesFailed()) {
      if (!failedBefore.contains(node)) {
        NodeReport r = reports.get(node);
        events.warning(model, r.reason() == null ? "NodeFailed" : r.reason(), "node " + node + ": "
            + Objects.requireNonNullElse(r.message(), "the model agent failed"));
      }
    }
    List<String> readyBefore = previous == null || previous.nodesReady() == null ? List.of() : previous.nodesReady();
    if (readyBefore.isEmpty() && !status.nodesReady().isEmpty()) {
      events.normal(model, "ModelReady", "Ready on node(s) " + String.join(", ", status.nodesReady()));
    }
  }

  private static String degradedMessage(ModelStatusSpec status) {
    var c = status == null ? null
        : dev.modelplane.operator.common.Conditions.find(status.conditions(), BaseModelStatusAggregator.DEGRADED);
    return c == null || !"True".equals(c.getStatus()) ? null : c.getMessage();
  }

  /**
   * Deletion waits until no existing node still reports the model (each agent removes its entry after cleanup),
   * except nodes that have not been Ready for the agent timeout: the model stops waiting for those, with a Warning
   * Event naming them.
   */
  @Override
  public DeleteControl cleanup(R model, Context<R> context) {
    BaseModelKey key = BaseModelKey.of(model);
    NodeReportSources.Seen seen = NodeReportSources.read(context, key);
    dropOrphans(seen.orphans(), context);
    Duration timeout = settings.modelStorage().agentTimeout();
    AgentWait.Outcome wait = AgentWait.decide(seen.reports(), seen.nodes(),
        ModelPaths.Claimant.created(model.getMetadata().getDeletionTimestamp()), clock.instant(), timeout);
    String uid = Objects.requireNonNullElse(model.getMetadata().getUid(), key.toString());
    java.util.Set<String> announced = givenUp.computeIfAbsent(uid, u -> java.util.concurrent.ConcurrentHashMap
        .newKeySet());
    for (AgentWait.GivenUp node : wait.givenUp()) {
      if (announced.add(node.node())) {
        LOG.warn("delete gives up model={} node={} notReadySince={}", key, node.node(), node.notReadySince());
        events.warning(model, "AgentUnreachable", "Stopped waiting for the model agent of node " + node.node()
            + ": not Ready (" + node.condition() + ") since " + node.notReadySince() + ", longer than "
            + timeout.toSeconds() + "s; the agent removes the files, label and report there when it runs again");
      }
    }
    if (!wait.waiting().isEmpty()) {
      LOG.info("delete waits model={} nodes={}", key, String.join(",", wait.waiting()));
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(timeout.compareTo(CLEANUP_RECHECK) < 0 ? timeout
          : CLEANUP_RECHECK);
    }
    givenUp.remove(uid);
    LOG.info("deleted model={}", key);
    return DeleteControl.defaultDelete();
  }
}
