package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model agent of one node, as OME runs it in a DaemonSet: watches BaseModels (all namespaces),
 * ClusterBaseModels and its own Node; for every model whose storage selects the node it downloads the files
 * ({@code hf://}, {@code s3://}), checks them ({@code local://}, {@code pvc://}) or reports why it cannot, and
 * publishes the per-node state (node label and the node's status ConfigMap entry) that the BaseModel controllers
 * aggregate. Models that leave the node, or are deleted, lose their downloaded files, label and entry.
 *
 * <p>Start one with {@link #start}; {@link #close()} stops the downloads promptly, keeping partial files so the
 * next run resumes them.
 */
public final class ModelAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ModelAgent.class);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
  private static final int QUEUE_CAPACITY = 100_000;

  private final ModelAgentSettings settings;
  private final KubernetesClient client;
  private final NodeStatusWriter writer;
  private final ModelSync sync;
  private final KeyedWorkQueue<BaseModelKey> queue;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<Node> nodes;
  private SharedIndexInformer<BaseModel> baseModels;
  private SharedIndexInformer<ClusterBaseModel> clusterBaseModels;
  private SharedIndexInformer<FineTunedWeight> fineTunedWeights;
  private volatile boolean started;

  private ModelAgent(KubernetesClient client, ModelAgentSettings settings, MeterRegistry registry) {
    this.client = client;
    this.settings = settings;
    this.writer = new NodeStatusWriter(client, settings.nodeName(), settings.namespace(),
        settings.limits().maxReports());
    ModelSync.View view = new InformerView();
    this.sync = new ModelSync(settings, view, writer, new ModelSourceFactory(this::readSecret, settings),
        (ns, name) -> client.persistentVolumeClaims().inNamespace(ns).withName(name).get(),
        new AgentMetrics(registry));
    this.queue = new KeyedWorkQueue<>("model-agent", settings.maxConcurrentDownloads(), QUEUE_CAPACITY,
        sync::process);
    sync.retryWith(queue::addAfter);
  }

  /** Starts an agent with its own (not exported) metrics. */
  public static ModelAgent start(KubernetesClient client, ModelAgentSettings settings) {
    return start(client, settings, new SimpleMeterRegistry());
  }

  /**
   * Starts an agent: informers synced, earlier reports read back, every model queued, workers running.
   *
   * @throws IllegalStateException when the informers do not sync within a minute
   */
  public static ModelAgent start(KubernetesClient client, ModelAgentSettings settings, MeterRegistry registry) {
    ModelAgent agent = new ModelAgent(client, settings, registry);
    try {
      agent.run();
    } catch (RuntimeException e) {
      agent.close();
      throw e;
    }
    return agent;
  }

  private void run() {
    long resync = settings.resync().toMillis();
    nodes = client.nodes().withField("metadata.name", settings.nodeName()).runnableInformer(resync);
    nodes.addEventHandler(new Handler<>(this::nodeChanged));
    baseModels = client.resources(BaseModel.class).inAnyNamespace().runnableInformer(resync);
    baseModels.addEventHandler(new Handler<>((old, now) -> modelChanged(now)));
    clusterBaseModels = client.resources(ClusterBaseModel.class).runnableInformer(resync);
    clusterBaseModels.addEventHandler(new Handler<>((old, now) -> modelChanged(now)));
    fineTunedWeights = client.resources(FineTunedWeight.class).runnableInformer(resync);
    fineTunedWeights.addEventHandler(new Handler<>((old, now) -> modelChanged(now)));
    informers.addAll(List.of(nodes, baseModels, clusterBaseModels, fineTunedWeights));
    for (SharedIndexInformer<?> informer : informers) {
      informer.start();
    }
    for (SharedIndexInformer<?> informer : informers) {
      try {
        informer.start().toCompletableFuture().get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new IllegalStateException("informer did not sync within " + SYNC_TIMEOUT + ": " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting", e);
      }
    }
    int reports = writer.load().size();
    removeStrayLabels();
    sync.knownKeys().forEach(queue::add);
    queue.start();
    started = true;
    LOG.info("agent.started node={} namespace={} roots={} hfEndpoint={} workers={} reports={} models={}",
        settings.nodeName(), settings.namespace(), String.join(",", settings.roots().roots().stream()
            .map(r -> r.specPath().toString()).toList()), settings.hfEndpoint(), settings.maxConcurrentDownloads(),
        reports, baseModels.getStore().list().size() + clusterBaseModels.getStore().list().size()
            + fineTunedWeights.getStore().list().size());
  }

  /** Whether the informers are synced and watching and the workers run. */
  public boolean ready() {
    return started && informers.stream().allMatch(i -> i.hasSynced() && i.isWatching());
  }

  /** The settings the agent runs with. */
  public ModelAgentSettings settings() {
    return settings;
  }

  /** Stops informers and downloads (partial files are kept) and waits briefly for the workers. */
  @Override
  public void close() {
    started = false;
    informers.forEach(SharedIndexInformer::stop);
    sync.cancelAll();
    queue.close(Duration.ofSeconds(10));
    LOG.info("agent.stopped node={}", settings.nodeName());
  }

  private void modelChanged(HasMetadata model) {
    AgentModel view = AgentModel.of(model);
    sync.observed(view);
    queue.add(view.key());
  }

  private void nodeChanged(Node old, Node now) {
    if (old != null && foreignLabels(old).equals(foreignLabels(now))) {
      return; // only the agent's own labels changed
    }
    for (BaseModelKey key : sync.knownKeys()) {
      sync.cancelIfStale(key);
      queue.add(key);
    }
  }

  /** Labels of the node other than the agent's own {@code models.ome.io/} ones. */
  private static Map<String, String> foreignLabels(Node node) {
    Map<String, String> labels = new HashMap<>(node.getMetadata().getLabels() == null ? Map.of()
        : node.getMetadata().getLabels());
    labels.keySet().removeIf(k -> k.startsWith(BaseModelKey.LABEL_PREFIX));
    return labels;
  }

  /** Removes model labels of this node that no known model owns (e.g. left by a model deleted meanwhile). */
  private void removeStrayLabels() {
    java.util.Set<String> owned = new java.util.HashSet<>();
    sync.knownKeys().forEach(k -> owned.add(k.labelKey()));
    new InformerView().nodeLabels().keySet().stream()
        .filter(l -> l.startsWith(BaseModelKey.LABEL_PREFIX) && !owned.contains(l))
        .forEach(l -> {
          LOG.info("agent.stray-label-removed node={} label={}", settings.nodeName(), l);
          writer.patchNodeLabel(l, null);
        });
  }

  private Map<String, String> readSecret(String namespace, String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      return null;
    }
    Map<String, String> data = new HashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, new String(Base64.getDecoder().decode(v),
          StandardCharsets.UTF_8)));
    }
    if (secret.getStringData() != null) {
      data.putAll(secret.getStringData());
    }
    return data;
  }

  /** The informers' caches, as {@link ModelSync} reads them. */
  private final class InformerView implements ModelSync.View {
    @Override
    public AgentModel current(BaseModelKey key) {
      HasMetadata model = key.fineTunedWeight() ? fineTunedWeights.getStore().getByKey(key.name())
          : key.clusterScoped() ? clusterBaseModels.getStore().getByKey(key.name())
          : baseModels.getStore().getByKey(key.namespace() + "/" + key.name());
      return model == null ? null : AgentModel.of(model);
    }

    @Override
    public Map<String, String> nodeLabels() {
      Node node = nodes.getStore().getByKey(settings.nodeName());
      return node == null || node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    }

    @Override
    public Collection<AgentModel> allModels() {
      return Stream.of(baseModels.getStore().list(), clusterBaseModels.getStore().list(),
          fineTunedWeights.getStore().list()).flatMap(List::stream).map(m -> AgentModel.of((HasMetadata) m))
          .toList();
    }
  }

  /** Passes adds, updates (including resyncs) and deletes on as (old, new) pairs. */
  private record Handler<T extends HasMetadata>(java.util.function.BiConsumer<T, T> onChange)
      implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T obj) {
      onChange.accept(null, obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      onChange.accept(oldObj, newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      onChange.accept(obj, obj);
    }
  }
}
