package dev.modelplane.router.request;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.net.HostPort;
import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.Log;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.FlowController;
import dev.modelplane.router.flowcontrol.FlowOutcome;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.SchedulingException;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Request control shared by the gateway and the ext_proc server (GIE's director): parse the body, apply the model
 * rewrite header, look up the objective's priority, admit (legacy shedding or flow control), locate candidates (pool
 * endpoints, narrowed by a subset hint), run PrepareData plugins, schedule, run PreRequest plugins.
 */
public final class RequestDirector {
  public static final String REQUEST_ID = RequestIds.HEADER;
  public static final String FAIRNESS_ID = "x-gateway-inference-fairness-id";
  public static final String OBJECTIVE = "x-gateway-inference-objective";
  public static final String MODEL_REWRITE = "x-gateway-model-name-rewrite";
  public static final String DEFAULT_FAIRNESS_ID = "default-flow";

  private final SchedulingSetup setup;
  private final RouterMetrics metrics;
  private final LongSupplier nanoClock;
  private final ScheduledExecutorService flowExecutor;
  private final Map<PoolKey, FlowController> flowControllers = new ConcurrentHashMap<>();

  /** A route in progress; {@link #cancel()} withdraws it from a flow-control queue. */
  public record PendingRoute(CompletableFuture<RoutingDecision> decision, Runnable canceller) {
    public void cancel() {
      canceller.run();
    }
  }

  public RequestDirector(SchedulingSetup setup, RouterMetrics metrics, LongSupplier nanoClock,
      ScheduledExecutorService flowExecutor) {
    this.setup = setup;
    this.metrics = metrics;
    this.nanoClock = nanoClock;
    this.flowExecutor = flowExecutor;
  }

  public SchedulingSetup setup() {
    return setup;
  }

  /** Whether the {@code flowControl} feature gate is on. */
  public boolean flowControlEnabled() {
    return setup.flowControl() != null;
  }

  /** Routes a request. Errors complete the future with a {@link RouterException}. */
  public PendingRoute route(RequestInput input) {
    Parsed parsed;
    List<EndpointState> candidates;
    try {
      parsed = parse(input);
      candidates = locate(input, Set.of());
    } catch (RouterException e) {
      recordError(null, null, e);
      return new PendingRoute(CompletableFuture.failedFuture(e), () -> { });
    }
    if (setup.flowControl() == null) {
      try {
        if (parsed.priority < 0 && setup.saturationDetector().saturation(candidates) >= 1.0) {
          throw new RouterException(ErrorCode.RESOURCE_EXHAUSTED, "system saturated, sheddable request dropped");
        }
        return new PendingRoute(CompletableFuture.completedFuture(schedule(input, parsed, Set.of())), () -> { });
      } catch (RouterException e) {
        recordError(parsed.incomingModel, parsed.targetModel, e);
        return new PendingRoute(CompletableFuture.failedFuture(e), () -> { });
      }
    }
    FlowController fc = flowController(input.pool());
    FlowController.Ticket ticket = fc.enqueue(parsed.fairnessId, parsed.priority, input.body().length, 0);
    CompletableFuture<RoutingDecision> decision = ticket.outcome().thenApply(outcome -> {
      if (outcome != FlowOutcome.DISPATCHED) {
        RouterException e = switch (outcome) {
          case REJECTED_CAPACITY -> new RouterException(ErrorCode.RESOURCE_EXHAUSTED,
              "request rejected by flow control: queue capacity exceeded");
          case EVICTED_TTL -> new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
              "request timed out in queue");
          case EVICTED_CONTEXT_CANCELLED -> new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
              "client disconnected");
          default -> new RouterException(ErrorCode.INTERNAL, "internal flow control error");
        };
        recordError(parsed.incomingModel, parsed.targetModel, e);
        throw e;
      }
      try {
        return schedule(input, parsed, Set.of());
      } catch (RouterException e) {
        recordError(parsed.incomingModel, parsed.targetModel, e);
        throw e;
      }
    });
    return new PendingRoute(decision, ticket::cancel);
  }

  /** Schedules again for a retry, without the endpoints that already failed; no parsing or admission. */
  public RoutingDecision reschedule(RoutingDecision previous, Set<EndpointId> excluded) {
    Parsed parsed = new Parsed(previous.request().body(), previous.request().incomingModel(),
        previous.request().targetModel(), previous.request().priority(), previous.request().fairnessId(),
        previous.request().requestId(), previous.body(), previous.bodyRewritten());
    return schedule(previous.input(), parsed, excluded);
  }

  /** A uniformly random endpoint of the pool (GIE's answer to a request without a body); null when empty. */
  public EndpointState randomEndpoint(EndpointPool pool, List<String> subsetHint) {
    List<EndpointState> all = filterSubset(pool.endpoints(), subsetHint);
    return all.isEmpty() ? null : all.get(ThreadLocalRandom.current().nextInt(all.size()));
  }

  /** The request started on {@code endpoint}. */
  public void started(RoutingDecision decision, EndpointState endpoint) {
    endpoint.requestStarted();
    metrics.runningRequests.add(1, decision.request().incomingModel());
  }

  /** The request on {@code endpoint} ended (completed, failed or abandoned). */
  public void finished(RoutingDecision decision, EndpointState endpoint) {
    endpoint.requestFinished();
    metrics.runningRequests.add(-1, decision.request().incomingModel());
    FlowController fc = flowControllers.get(decision.pool().key());
    if (fc != null) {
      fc.signal();
    }
  }

  /** Metrics changed for a pool: queued requests may now fit. */
  public void poolUpdated(EndpointPool pool) {
    FlowController fc = flowControllers.get(pool.key());
    if (fc != null && fc.queuedRequests() > 0) {
      fc.signal();
    }
  }

  private FlowController flowController(EndpointPool pool) {
    return flowControllers.computeIfAbsent(pool.key(), k -> {
      FlowControlConfig config = setup.flowControl();
      FlowController fc = new FlowController(config, () -> setup.saturationDetector().saturation(pool.endpoints()),
          nanoClock, flowExecutor, metrics.flowObserver(k.toString()), 2_000_000L);
      metrics.flowController(k.toString(), fc);
      return fc;
    });
  }

  private record Parsed(LlmRequestBody body, String incomingModel, String targetModel, int priority,
      String fairnessId, String requestId, byte[] forwardBody, boolean rewritten) {
  }

  private Parsed parse(RequestInput input) {
    LlmRequestBody body = OpenAiRequestParser.parse(input.path(), input.body());
    String incoming = OpenAiRequestParser.model(body);
    String rewrite = input.headers().get(MODEL_REWRITE);
    String target = rewrite == null || rewrite.isEmpty() ? incoming : rewrite;
    byte[] forward = input.body();
    boolean rewritten = false;
    if (!target.equals(incoming)) {
      ((ObjectNode) body.json()).put("model", target);
      forward = OpenAiRequestParser.serialize(body.json());
      rewritten = true;
    }
    int priority = input.pool().priorityOf(input.headers().get(OBJECTIVE));
    String fairness = input.headers().get(FAIRNESS_ID);
    if (fairness == null || fairness.isEmpty()) {
      fairness = DEFAULT_FAIRNESS_ID;
    }
    String requestId = input.headers().get(REQUEST_ID);
    if (requestId == null || requestId.isEmpty()) {
      requestId = RequestIds.newId();
    }
    return new Parsed(body, incoming, target, priority, fairness, requestId, forward, rewritten);
  }

  private List<EndpointState> locate(RequestInput input, Set<EndpointId> excluded) {
    List<EndpointState> all = filterSubset(input.pool().endpoints(), input.subsetHint());
    if (all.isEmpty()) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
          "failed to find endpoint candidates for serving the request");
    }
    long now = nanoClock.getAsLong();
    List<EndpointState> usable = new ArrayList<>(all.size());
    for (EndpointState s : all) {
      if (!excluded.contains(s.id()) && !s.isUnreachable(now)) {
        usable.add(s);
      }
    }
    if (usable.isEmpty()) {
      // Everything recently refused connections: try the ones not yet tried rather than failing outright.
      for (EndpointState s : all) {
        if (!excluded.contains(s.id())) {
          usable.add(s);
        }
      }
    }
    if (usable.isEmpty()) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no endpoint left to try for the request");
    }
    return usable;
  }

  /**
   * Narrows to the proxy's subset hint: entries are {@code ip:port} (matched exactly) or a bare {@code ip} (any port
   * of that address). An explicitly empty hint leaves nothing (503).
   */
  static List<EndpointState> filterSubset(List<EndpointState> endpoints, List<String> hint) {
    if (hint == null) {
      return endpoints;
    }
    Set<String> exact = new HashSet<>();
    Set<String> hosts = new HashSet<>();
    for (String h : hint) {
      String s = h.trim();
      if (s.isEmpty()) {
        continue;
      }
      HostPort address;
      try {
        address = HostPort.parse(s, 0); // port 0: any port of that address
      } catch (IllegalArgumentException e) {
        continue; // names no endpoint
      }
      if (address.port() == 0) {
        hosts.add(address.host());
      } else {
        exact.add(address.toString());
      }
    }
    List<EndpointState> out = new ArrayList<>();
    for (EndpointState e : endpoints) {
      if (exact.contains(e.endpoint().hostPort()) || hosts.contains(e.endpoint().address())) {
        out.add(e);
      }
    }
    return out;
  }

  private RoutingDecision schedule(RequestInput input, Parsed parsed, Set<EndpointId> excluded) {
    List<EndpointState> states = locate(input, excluded);
    InferenceRequest request = new InferenceRequest(parsed.requestId, parsed.incomingModel, parsed.targetModel,
        parsed.body, withRequestId(input.headers(), parsed.requestId), parsed.priority, parsed.fairnessId,
        parsed.forwardBody.length);
    List<Candidate> candidates = new ArrayList<>(states.size());
    for (EndpointState s : states) {
      candidates.add(new Candidate(s));
    }
    for (PrepareDataPlugin p : setup.prepareData()) {
      long t = System.nanoTime();
      try {
        p.prepareRequestData(request, candidates);
      } catch (RuntimeException e) {
        Log.warn("prepare data plugin failed", "plugin", p.name(), "error", e.toString());
      }
      metrics.pluginDuration("PrepareData", p, System.nanoTime() - t);
    }
    SchedulingResult result;
    try {
      result = setup.scheduler().schedule(request, candidates);
    } catch (SchedulingException e) {
      metrics.schedulerAttempts.inc("failure", parsed.targetModel, "", "", "");
      throw new RouterException(ErrorCode.RESOURCE_EXHAUSTED, "failed to find target endpoint: " + e.getMessage());
    }
    for (PreRequestPlugin p : setup.preRequest()) {
      long t = System.nanoTime();
      p.preRequest(request, result);
      metrics.pluginDuration("PreRequest", p, System.nanoTime() - t);
    }
    List<EndpointState> targets = new ArrayList<>();
    for (Candidate c : result.primary().targets()) {
      targets.add(c.state());
    }
    EndpointState first = targets.get(0);
    metrics.schedulerAttempts.inc("success", parsed.targetModel, first.id().name(), first.id().namespace(),
        String.valueOf(first.endpoint().port()));
    for (Map.Entry<String, ProfileRunResult> e : result.profileResults().entrySet()) {
      SchedulerProfile profile = setup.scheduler().profiles().get(e.getKey());
      if (profile != null && e.getValue() != null) {
        metrics.pluginDecisions.add(e.getValue().targets().size(), "Picker", profile.picker().type(),
            profile.picker().name(), "picked");
      }
    }
    metrics.requestTotal.inc(parsed.incomingModel, parsed.targetModel, String.valueOf(parsed.priority));
    metrics.requestSizes.observe(parsed.forwardBody.length, parsed.incomingModel, parsed.targetModel);
    return new RoutingDecision(input, request, result, List.copyOf(targets), parsed.forwardBody, parsed.rewritten);
  }

  private static Map<String, String> withRequestId(Map<String, String> headers, String requestId) {
    if (requestId.equals(headers.get(REQUEST_ID))) {
      return headers;
    }
    Map<String, String> copy = new java.util.HashMap<>(headers);
    copy.put(REQUEST_ID, requestId);
    return copy;
  }

  private void recordError(String model, String target, RouterException e) {
    metrics.requestErrorTotal.inc(model == null ? "" : model, target == null ? "" : target, e.code().code());
  }

  /** Stops flow control, rejecting what is queued. */
  public void close() {
    flowControllers.values().forEach(FlowController::close);
  }
}
