package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.KvEventSubscriber;
import dev.modelplane.common.kvevents.KvEventSubscriber.Source;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.common.net.HostPort;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds each pool's {@link PoolIndex} from its servers' KV-cache events, on one subscriber thread for every pool.
 *
 * <p>With {@code discoverPods} (the default), each endpoint's server is read on its own socket,
 * {@code tcp://<endpoint address>:<socketPort>}, and asked for what it still keeps on {@code replayPort} when one is
 * set; an endpoint leaving the pool is forgotten at once. Otherwise the router binds {@code zmqEndpoint}, servers
 * connect to it, and each message goes to the endpoint its topic names ({@code kv@<pod>@<model>}, the pod being
 * {@code ip:port}, which names one endpoint, or a bare {@code ip}, which names every endpoint at that address).
 * Either way the index knows a server by the router's endpoint id.
 *
 * <p>The subscriber starts with the first endpoint, so a configuration that is only loaded opens no socket.
 */
final class KvEventIngestion implements KvEventSubscriber.Listener, EndpointListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KvEventIngestion.class);
  private static final String CENTRAL = "central";
  /** The pool label of what cannot be tied to a pool (central mode: a topic naming no endpoint). */
  static final String NO_POOL = "";
  private static final int MAX_UNMATCHED_WARNINGS = 1024;

  private record Target(PoolIndex index, EndpointId pod) {
  }

  private final PrecisePrefixConfig config;
  private final PluginObserver observer;
  private final Map<PoolKey, PoolIndex> pools = new ConcurrentHashMap<>();
  private final Map<EndpointId, PoolIndex> byEndpoint = new ConcurrentHashMap<>();
  /** Discovery: each source's endpoint. */
  private final Map<String, Target> sources = new ConcurrentHashMap<>();
  /** Central: the endpoints at each {@code ip:port} and each {@code ip}. */
  private final Map<String, List<Target>> byAddress = new ConcurrentHashMap<>();
  private final Set<String> unmatched = ConcurrentHashMap.newKeySet();
  private KvEventSubscriber subscriber;
  private boolean closed;
  /** Events come from the caller ({@link #fromCaller}), never from sockets: no subscriber is started. */
  private volatile boolean callerFed;
  /** Central: why the next batch's server is to be forgotten first (subscriber thread only). */
  private String pendingReset;

  KvEventIngestion(PrecisePrefixConfig config, PluginObserver observer) {
    this.config = config;
    this.observer = observer;
  }

  /** The index of the pool {@code pod} belongs to, or null when no pool has it. */
  PoolIndex index(EndpointId pod) {
    return byEndpoint.get(pod);
  }

  /** The index of {@code pool}, or null while it has no endpoint. */
  PoolIndex index(PoolKey pool) {
    return pools.get(pool);
  }

  List<PoolIndex.Status> statuses() {
    List<PoolIndex.Status> out = new ArrayList<>();
    pools.values().forEach(p -> out.add(p.status()));
    return out;
  }

  @Override
  public void added(EndpointPool pool, EndpointState state) {
    Endpoint e = state.endpoint();
    PoolIndex index = pools.computeIfAbsent(pool.key(), k -> new PoolIndex(k.toString(), config, observer));
    index.join(e.id());
    byEndpoint.put(e.id(), index);
    Target target = new Target(index, e.id());
    KvEventSubscriber sub = subscriber();
    if (sub == null) {
      return;
    }
    if (config.discoverPods()) {
      String id = sourceId(pool.key(), e.id());
      sources.put(id, target);
      sub.add(new Source(id, "tcp://" + HostPort.join(e.address(), config.socketPort()),
          config.replayPort() == 0 ? null : "tcp://" + HostPort.join(e.address(), config.replayPort())));
    } else {
      for (String address : List.of(e.hostPort(), e.address())) {
        byAddress.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>()).add(target);
      }
    }
  }

  @Override
  public void removed(EndpointPool pool, EndpointState state) {
    Endpoint e = state.endpoint();
    PoolIndex index = pools.get(pool.key());
    if (index == null) {
      return;
    }
    Target target = new Target(index, e.id());
    if (config.discoverPods()) {
      String id = sourceId(pool.key(), e.id());
      KvEventSubscriber sub = subscriber();
      if (sources.remove(id) != null && sub != null) {
        sub.remove(id);
      }
    } else {
      for (String address : List.of(e.hostPort(), e.address())) {
        byAddress.computeIfPresent(address, (a, targets) -> {
          targets.remove(target);
          return targets.isEmpty() ? null : targets;
        });
      }
    }
    index.leave(e.id());
    byEndpoint.remove(e.id(), index);
    if (index.isEmpty()) {
      pools.remove(pool.key(), index);
    }
  }

  /** Same pod, new labels: its cache is still there. */
  @Override
  public void replaced(EndpointPool pool, EndpointState before, EndpointState after) {
  }

  @Override
  public void onBatch(Source source, KvTopic topic, KvEventBatch batch) {
    if (config.discoverPods()) {
      Target t = sources.get(source.id());
      if (t != null) {
        t.index().apply(t.pod(), batch);
      }
      return;
    }
    String reset = pendingReset;
    pendingReset = null;
    List<Target> targets = byAddress.get(topic.pod());
    if (targets == null) {
      observer.kvEventsSkipped(NO_POOL, "unknown_pod", batch.events().size());
      if (unmatched.size() < MAX_UNMATCHED_WARNINGS && unmatched.add(topic.pod())) {
        LOG.atWarn().addKeyValue("pod", topic.pod()).log("precise prefix index: kv events from a pod that is no "
            + "endpoint of the router's pools; the topic's pod part must be the endpoint's ip or ip:port");
      }
      return;
    }
    for (Target t : targets) {
      if (reset != null) {
        t.index().reset(t.pod(), reset);
      }
      t.index().apply(t.pod(), batch);
    }
  }

  /**
   * Discovery: the endpoint's server restarted, or its source was replaced or removed. Central: the subscriber
   * noticed a server's numbering start again and tells the shared source; the restarted server's batch follows at
   * once, so its endpoint is forgotten before that batch is applied.
   */
  @Override
  public void onReset(Source source, String reason) {
    if (config.discoverPods()) {
      Target t = sources.get(source.id());
      if (t != null) {
        t.index().reset(t.pod(), reason);
      }
    } else {
      pendingReset = reason;
    }
  }

  @Override
  public void onGap(Source source, long missing) {
    observer.kvEventBatchesLost(pool(source), missing);
  }

  @Override
  public void onMalformed(Source source, String reason) {
    pendingReset = null; // central: the restarted server's batch was this one; its pod cannot be known
    observer.kvEventMalformed(pool(source));
    LOG.atDebug().addKeyValue("source", source.id()).addKeyValue("reason", reason)
        .log("precise prefix index: skipped a message that is not an event batch");
  }

  private String pool(Source source) {
    Target t = sources.get(source.id());
    return t == null ? NO_POOL : t.index().pool();
  }

  private static String sourceId(PoolKey pool, EndpointId pod) {
    return pod + "@" + pool;
  }

  /** From now on events come from {@link #apply} only: no socket is opened for any endpoint. */
  void fromCaller() {
    callerFed = true;
  }

  /** Applies {@code pod}'s batch as if read from its server (an in-process fleet; see {@link #fromCaller}). */
  void apply(EndpointId pod, KvEventBatch batch) {
    PoolIndex index = byEndpoint.get(pod);
    if (index != null) {
      index.apply(pod, batch);
    }
  }

  /** The subscriber, started on first use (bound to {@code zmqEndpoint} in central mode); null once closed. */
  private synchronized KvEventSubscriber subscriber() {
    if (callerFed) {
      return null;
    }
    if (subscriber == null && !closed) {
      subscriber = new KvEventSubscriber("precise-prefix", config.topicFilter(), this);
      if (!config.discoverPods()) {
        subscriber.add(new Source(CENTRAL, config.zmqEndpoint(), null));
        LOG.atInfo().addKeyValue("endpoint", config.zmqEndpoint())
            .log("precise prefix index: servers publish kv events to this address");
      }
    }
    return subscriber;
  }

  @Override
  public void close() {
    KvEventSubscriber s;
    synchronized (this) {
      closed = true;
      s = subscriber;
      subscriber = null;
    }
    if (s != null) {
      s.close();
    }
  }
}
