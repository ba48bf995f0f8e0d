package dev.modelplane.planner.fleet;

import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheProducer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheScorer;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.tokenize.ModelTokenizers;
import dev.modelplane.simulator.VirtualServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * One simulated run: virtual servers behind the router's own director (parsing, admission and flow control,
 * PrepareData plugins, the scheduler, PreRequest and response plugins), a scrape of every server's load on the
 * router's cadence, KV-cache events straight into the precise index, and the workload's clients. Single-threaded;
 * nothing sleeps and nothing opens a socket.
 */
final class Fleet {
  /** The router's default scrape interval, plus what a scrape of a loopback server takes. */
  static final long SCRAPE_PERIOD_NANOS = Duration.ofMillis(51).toNanos();
  /** How long after the last arrival unfinished requests are given before the run stops. */
  static final long DRAIN_LIMIT_NANOS = Duration.ofMinutes(30).toNanos();

  final VirtualTime time = new VirtualTime();
  private final Workload workload;
  private final List<VirtualServer> servers = new ArrayList<>();
  private final Map<EndpointId, Integer> serverOf = new HashMap<>();
  private final EndpointState[] states;
  private final long[] nextEvent;
  private final Runnable[] serverTasks;
  private final EndpointPool pool = new EndpointPool(new PoolKey("plan", "fleet"));
  private final RequestDirector director;
  private final RequestBodies bodies;
  final RunStatistics stats = new RunStatistics();
  private Iterator<PlannedRequest> arrivals;
  private long lastArrival;
  private boolean arrivalsDone;

  Fleet(FleetConfig config, Workload workload, long seed) {
    this.workload = workload;
    List<String> args = ServerArgs.of(config, workload);
    for (int i = 0; i < config.replicas(); i++) {
      servers.add(VirtualServer.create(args, seed * 1_000_003L + i));
    }
    VirtualServer first = servers.get(0);
    this.bodies = new RequestBodies(seed, first.servedModel());
    RandomGenerator random = new SplittableRandom(seed);
    RouterMetrics metrics = new RouterMetrics(new PoolRegistry(), time::now, Duration.ofSeconds(2).toNanos());
    PluginEnvironment env = new PluginEnvironment(time::now, () -> random, Runnable::run, metrics,
        ModelTokenizers.parse(List.of("word"), new TokenizerCache(2)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), env, metrics)
        .load(config.profile().pickerConfig(first.blockSize()));
    this.director = new RequestDirector(setup, metrics, time::now, new VirtualExecutor(time));
    PrecisePrefixCacheProducer precise = null;
    for (Plugin p : setup.plugins().values()) {
      PrecisePrefixCacheProducer producer = p instanceof PrecisePrefixCacheProducer pp ? pp
          : p instanceof PrecisePrefixCacheScorer scorer ? scorer.producer() : null;
      if (producer != null) {
        producer.eventsFromCaller();
        precise = producer;
      }
      if (p instanceof EndpointListener listener) {
        pool.addListener(listener);
      }
    }
    List<Endpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      // Addresses are names only: nothing connects to them.
      Endpoint e = new Endpoint(new EndpointId("plan", "replica-" + i + "-rank-0"), "127.0.0.1", 8000 + i, Map.of());
      endpoints.add(e);
      serverOf.put(e.id(), i);
    }
    pool.setEndpoints(endpoints);
    this.states = new EndpointState[servers.size()];
    for (EndpointState s : pool.endpoints()) {
      states[serverOf.get(s.id())] = s;
    }
    this.nextEvent = new long[servers.size()];
    this.serverTasks = new Runnable[servers.size()];
    for (int i = 0; i < servers.size(); i++) {
      int index = i;
      nextEvent[i] = Long.MAX_VALUE;
      serverTasks[i] = () -> serverEvent(index);
      if (precise != null) {
        PrecisePrefixCacheProducer target = precise;
        EndpointId id = states[i].id();
        servers.get(i).kvEvents(events -> target.apply(id, new KvEventBatch(time.now() / 1e9, events, null)));
      }
    }
  }

  /** Runs the workload to its end (every request answered, refused, or given up after the drain limit). */
  FleetResult run() {
    long wallStart = System.nanoTime();
    for (int i = 0; i < servers.size(); i++) {
      scrape(i);
      int index = i;
      time.at(SCRAPE_PERIOD_NANOS * i / servers.size() + 1, VirtualTime.SCRAPE, new Runnable() {
        @Override
        public void run() {
          scrape(index);
          if (!over()) {
            time.at(time.now() + SCRAPE_PERIOD_NANOS, VirtualTime.SCRAPE, this);
          }
        }
      });
    }
    arrivals = workload.requests();
    nextArrival();
    while (!over() && time.runNext()) {
      if (arrivalsDone && time.now() - lastArrival > DRAIN_LIMIT_NANOS) {
        break;
      }
    }
    director.close();
    return stats.result(workload.rate(), time.now(), System.nanoTime() - wallStart);
  }

  private boolean over() {
    return arrivalsDone && stats.inFlight() == 0;
  }

  private void nextArrival() {
    if (!arrivals.hasNext()) {
      arrivalsDone = true;
      return;
    }
    PlannedRequest r = arrivals.next();
    lastArrival = r.arrivalNanos();
    time.at(r.arrivalNanos(), VirtualTime.ARRIVAL, () -> {
      arrive(r);
      nextArrival();
    });
  }

  private void arrive(PlannedRequest r) {
    Map<String, String> headers = new HashMap<>();
    headers.put("content-type", "application/json");
    if (r.priority() != 0) {
      String objective = "priority-" + r.priority();
      if (!pool.hasObjective(objective)) {
        pool.putObjective(objective, r.priority());
      }
      headers.put(RequestDirector.OBJECTIVE, objective);
    }
    if (r.fairnessId() != null) {
      headers.put(RequestDirector.FAIRNESS_ID, r.fairnessId());
    }
    long now = time.now();
    RequestInput input = new RequestInput(pool, RequestBodies.PATH, headers, bodies.body(r), null, now);
    ClientRequest client = new ClientRequest(r, now, this);
    stats.sent();
    director.route(input).decision().whenComplete((decision, error) -> {
      if (error != null) {
        stats.refused(client);
      } else {
        client.forward(decision);
      }
    });
  }

  /** Sends a scheduled request to its server; false (and the request is over) when the server refused it. */
  VirtualServer.Refusal submit(int server, byte[] body, ClientRequest client) {
    VirtualServer.Refusal refusal = servers.get(server).submit(false, body, time.now(), client);
    reschedule(server);
    return refusal;
  }

  int serverOf(EndpointState state) {
    return serverOf.get(state.id());
  }

  RequestDirector director() {
    return director;
  }

  private void serverEvent(int i) {
    if (time.now() != nextEvent[i]) {
      return; // superseded
    }
    nextEvent[i] = Long.MAX_VALUE;
    servers.get(i).advanceTo(time.now());
    reschedule(i);
  }

  private void reschedule(int i) {
    long next = servers.get(i).nextEventNanos();
    if (next != Long.MAX_VALUE && next != nextEvent[i]) {
      nextEvent[i] = next;
      time.at(next, VirtualTime.SERVER, serverTasks[i]);
    }
  }

  /** What a scrape of server {@code i} reads, given to its endpoint as the metrics extractor would. */
  private void scrape(int i) {
    VirtualServer.Load l = servers.get(i).load();
    states[i].updateMetrics(new MetricsSnapshot(l.waiting(), l.running(), l.kvUsage(), l.runningAdapters(),
        l.waitingAdapters(), l.maxLoras(), l.blockSize(), l.numBlocks(), true, time.now()));
    director.poolUpdated(pool);
  }
}
