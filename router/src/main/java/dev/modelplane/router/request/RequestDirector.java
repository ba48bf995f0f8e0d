package dev.modelplane.router.request;

import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.MetricLabels;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.RequestJson;
import dev.modelplane.router.scheduling.ResponseCompletePlugin;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseProgress;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.SchedulingException;
import dev.modelplane.router.scheduling.SchedulingResult;
import dev.modelplane.router.ui.LiveView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one request's lifecycle for both front ends (the gateway and the ext_proc server), as GIE's director does:
 * parse → admit → pick (locate candidates, PrepareData plugins, scheduler, PreRequest plugins — or an external
 * picker) → the front end forwards → observe the response (ResponseReceived plugins) → the request is over
 * (ResponseComplete plugins, metrics).
 */
public final class RequestDirector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RequestDirector.class);

  public static final String REQUEST_ID = RequestIds.HEADER;
  public static final String FAIRNESS_ID = "x-gateway-inference-fairness-id";
  public static final String OBJECTIVE = "x-gateway-inference-objective";
  public static final String MODEL_REWRITE = "x-gateway-model-name-rewrite";
  public static final String DEFAULT_FAIRNESS_ID = "default-flow";

  private final SchedulingSetup setup;
  private final RouterMetrics metrics;
  private final CandidateLocator locator;
  private final Admission admission;
  /** The pick step when an external endpoint picker makes it; {@code null} when the router picks itself. */
  private final ExternalRoute externalRoute;
  /** Who picks for each pool when there is no {@link #externalRoute}: in-process, or the pool's own picker. */
  private volatile PoolPickers poolPickers = PoolPickers.IN_PROCESS;
  /** Starts each request's spans; off unless {@code --tracing}. */
  private volatile RequestTracer tracer = RequestTracer.OFF;
  private final RequestLimits limits;
  private final RequestJson json;
  private final InflightBytes inflight;
  private final MetricLabels labels;
  /** Feeds the live page once per finished request; {@code null} when there is no live page. */
  private volatile LiveViewFeed liveView;
  /** The model labels of a request, resolved once so that gauges go up and down under the same label. */
  private static final String LABELS = "modelplane.metricLabels";

  /** A route being decided; {@link #cancel()} withdraws it (the client went away while it was queued). */
  public record PendingDecision(CompletableFuture<RoutingDecision> decision, Runnable canceller) {
    public void cancel() {
      canceller.run();
    }
  }

  /** A director that picks in-process with the configured scheduler. */
  public RequestDirector(SchedulingSetup setup, RouterMetrics metrics, LongSupplier nanoClock,
      ScheduledExecutorService flowExecutor) {
    this(setup, metrics, nanoClock, flowExecutor, null, false);
  }

  /**
   * A director; with an {@code externalPicker}, the pick step is delegated to it, and when it cannot be reached
   * {@code failOpen} sends the request to a random endpoint of the pool instead of answering 503.
   */
  public RequestDirector(SchedulingSetup setup, RouterMetrics metrics, LongSupplier nanoClock,
      ScheduledExecutorService flowExecutor, ExternalPicker externalPicker, boolean failOpen) {
    this(setup, metrics, nanoClock, flowExecutor, externalPicker, failOpen, RequestLimits.defaults());
  }

  /** A director with the given request limits (body size, JSON shape, bytes in flight). */
  public RequestDirector(SchedulingSetup setup, RouterMetrics metrics, LongSupplier nanoClock,
      ScheduledExecutorService flowExecutor, ExternalPicker externalPicker, boolean failOpen, RequestLimits limits) {
    this.limits = limits;
    this.json = new RequestJson(limits.json());
    this.inflight = new InflightBytes(limits.maxInflightBytes(), () -> metrics.inflightRejections.inc());
    metrics.inflightBytes(inflight::used);
    this.labels = metrics.labels;
    this.setup = setup;
    this.metrics = metrics;
    this.locator = new CandidateLocator(nanoClock);
    this.admission = new Admission(setup, metrics, nanoClock, flowExecutor);
    this.externalRoute = externalPicker == null ? null : new ExternalRoute(this, externalPicker, null, failOpen,
        json);
  }

  /**
   * Who picks for each pool at the gateway when no external picker was given to the constructor (which wins over
   * these); by default every pool is picked in-process.
   */
  public void poolPickers(PoolPickers pickers) {
    this.poolPickers = pickers == null ? PoolPickers.IN_PROCESS : pickers;
  }

  /**
   * A new {@link ResponseProgress} when some ResponseComplete plugin or the live view may read the stream timing,
   * else {@code null}: the per-chunk scan is paid only where it is used.
   */
  public ResponseProgress responseProgress() {
    return setup.lifecycle().responseComplete().isEmpty() && liveView == null ? null : new ResponseProgress();
  }

  /** Feeds {@code view} (the live page) with every request that finishes or is refused from now on. */
  public void liveView(LiveView view) {
    this.liveView = view == null ? null : new LiveViewFeed(view);
  }

  /** Turns request tracing on (or off with {@link RequestTracer#OFF}). */
  public void tracer(RequestTracer tracer) {
    this.tracer = tracer == null ? RequestTracer.OFF : tracer;
  }

  /** Starts the front ends' request spans. */
  public RequestTracer tracer() {
    return tracer;
  }

  public SchedulingSetup setup() {
    return setup;
  }

  public RequestLimits limits() {
    return limits;
  }

  /** The budget of request bytes in flight, shared by both front ends. */
  public InflightBytes inflight() {
    return inflight;
  }

  /**
   * Decides where a gateway request goes: the external picker given to the constructor, else the picker the pool
   * names ({@link #poolPickers(PoolPickers)}), else this router. Errors complete the future with a
   * {@link RouterException}.
   */
  public PendingDecision route(RequestInput input) {
    return route(input, true);
  }

  /**
   * Decides where a request goes; with {@code followPoolPicker} false a pool's own picker is not asked (the ext_proc
   * server: the proxy in front of it has already called the pool's picker, which is this router).
   */
  public PendingDecision route(RequestInput input, boolean followPoolPicker) {
    if (externalRoute != null) {
      return externalRoute.route(input);
    }
    if (followPoolPicker && input.pool() != null) {
      PendingDecision byPoolPicker = ExternalRoute.byPoolPicker(this, poolPickers.choose(input.pool()), input, json);
      if (byPoolPicker != null) {
        return byPoolPicker;
      }
    }
    ParsedRequest parsed;
    List<EndpointState> candidates;
    RequestTrace trace = input.trace();
    io.opentelemetry.api.trace.Span parse = trace.child("router.parse");
    try {
      parsed = ParsedRequest.read(input, json);
      candidates = locator.locate(input, Set.of());
    } catch (RouterException e) {
      RequestSpans.failed(parse, e);
      recordError(null, null, e);
      refused(input, null, null, e);
      return new PendingDecision(CompletableFuture.failedFuture(e), () -> { });
    }
    parse.end();
    io.opentelemetry.api.trace.Span wait = trace.child("router.admission");
    Admission.Ticket ticket = admission.admit(input.pool(), candidates, parsed);
    CompletableFuture<RoutingDecision> decision = ticket.admitted().handle((ok, err) -> {
      try {
        if (err != null) {
          RuntimeException e = unwrap(err);
          RequestSpans.failed(wait, e);
          throw e;
        }
        wait.end();
        return schedule(input, parsed, Set.of(), null);
      } catch (RouterException e) {
        recordError(parsed.incomingModel(), parsed.targetModel(), e);
        refused(input, parsed.incomingModel(), parsed.targetModel(), e);
        throw e;
      }
    });
    return new PendingDecision(decision, ticket.cancel());
  }

  /**
   * Another destination for a request whose attempt failed before the response: the next of the decision's list
   * not in {@code failed} (host:port), else — when the router picked itself — a new schedule without the failed
   * endpoints (no parsing or admission again). {@code null} when nothing is left to try.
   */
  public RoutingDecision retry(RoutingDecision previous, Set<String> failed) {
    RoutingDecision next = previous.nextDestination(failed);
    if (next != null || previous.result() == null) {
      return next;
    }
    Set<EndpointId> excluded = new HashSet<>();
    for (EndpointState s : previous.pool().endpoints()) {
      if (failed.contains(s.endpoint().hostPort())) {
        excluded.add(s.id());
      }
    }
    InferenceRequest r = previous.request();
    ParsedRequest parsed = new ParsedRequest(r.body(), r.incomingModel(), r.targetModel(), r.priority(),
        r.fairnessId(), r.requestId(), previous.body(), previous.bodyRewritten());
    try {
      return schedule(previous.input(), parsed, excluded, r);
    } catch (RouterException e) {
      return null;
    }
  }

  /** Any endpoint, for a request that needs no scheduling (no body, or {@code GET /v1/models}); {@code null} if none. */
  public Destination any(EndpointPool pool, List<String> subsetHint) {
    EndpointState s = CandidateLocator.random(pool, subsetHint);
    return s == null ? null : Destination.of(s);
  }

  /** The front end sent the request to {@code decision.destination()}. */
  public void started(RoutingDecision decision) {
    decision.input().trace().upstreamStarted(decision.destination(), decision.attempt());
    EndpointState state = decision.destination().state();
    if (state != null) {
      state.requestStarted();
    }
    metrics.runningRequests.add(1, labels(decision.request())[0]);
  }

  /** The model server's response headers arrived from {@code servedBy}. */
  public void responseReceived(RoutingDecision decision, int status, Destination servedBy) {
    decision.input().trace().upstreamResponded(status);
    if (status >= 200 && status < 300) {
      InferenceRequest r = decision.request();
      labels.served(r.targetModel());
      if (r.incomingModel().equals(r.targetModel())) {
        labels.served(r.incomingModel());
      }
    }
    if (status != 200) {
      String[] l = labels(decision.request());
      metrics.requestErrorTotal.inc(l[0], l[1], ErrorCode.MODEL_SERVER_ERROR.code());
    }
    if (decision.external() != null) {
      decision.external().responseReceived(status, servedBy);
    }
    if (decision.result() == null) {
      return; // picked elsewhere (or failed open): the plugins here never saw the request
    }
    EndpointState served = servedBy == null ? null
        : servedBy.state() != null ? servedBy.state() : decision.pool().byHostPort(servedBy.hostPort());
    for (ResponseReceivedPlugin p : setup.lifecycle().responseReceived()) {
      runPlugin("ResponseReceived", p, decision.request(),
          () -> p.responseReceived(decision.request(), decision.result(), status, served));
    }
  }

  /** The attempt on {@code decision.destination()} ended (completed, failed or abandoned). */
  public void finished(RoutingDecision decision) {
    finished(decision, false);
  }

  /** The attempt on {@code decision.destination()} ended; {@code completed}: its response reached its end. */
  public void finished(RoutingDecision decision, boolean completed) {
    decision.input().trace().upstreamFinished(completed);
    EndpointState state = decision.destination().state();
    if (state != null) {
      state.requestFinished();
    }
    metrics.runningRequests.add(-1, labels(decision.request())[0]);
    admission.capacityChanged(decision.pool(), false);
  }

  /** The request is over; {@code decision} is the last attempt's. Runs ResponseComplete plugins once. */
  public void complete(RoutingDecision decision, ResponseOutcome outcome, long nowNanos) {
    if (decision.external() != null) {
      decision.external().close();
    }
    if (decision.result() != null) {
      EndpointState served = outcome.status() > 0 ? decision.destination().state() : null;
      for (ResponseCompletePlugin p : setup.lifecycle().responseComplete()) {
        runPlugin("ResponseComplete", p, decision.request(),
            () -> p.responseComplete(decision.request(), served, outcome));
      }
    }
    LiveViewFeed live = liveView;
    if (live != null) {
      live.completed(decision, outcome, nowNanos);
    }
    if (outcome.succeeded()) {
      String[] l = labels(decision.request());
      String model = l[0];
      String target = l[1];
      metrics.requestDuration.observe((nowNanos - decision.input().receivedNanos()) / 1e9, model, target);
      metrics.responseSizes.observe(outcome.responseBytes(), model, target);
    }
  }

  private void refused(RequestInput input, String model, String target, RouterException e) {
    LiveViewFeed live = liveView;
    if (live != null) {
      live.refused(input, model, target, e);
    }
  }

  /** Metrics changed for a pool: queued requests may now fit. */
  public void poolUpdated(EndpointPool pool) {
    admission.capacityChanged(pool, true);
  }

  static InferenceRequest inferenceRequest(RequestInput input, ParsedRequest parsed) {
    Map<String, String> headers = input.headers();
    if (!parsed.requestId().equals(headers.get(REQUEST_ID))) {
      headers = new HashMap<>(headers);
      headers.put(REQUEST_ID, parsed.requestId());
    }
    return new InferenceRequest(parsed.requestId(), parsed.incomingModel(), parsed.targetModel(), parsed.body(),
        headers, parsed.priority(), parsed.fairnessId(), parsed.forwardBody().length);
  }

  /** {@code earlier}: the same request as its failed attempt was scheduled, {@code null} the first time. */
  private RoutingDecision schedule(RequestInput input, ParsedRequest parsed, Set<EndpointId> excluded,
      InferenceRequest earlier) {
    RequestTrace trace = input.trace();
    io.opentelemetry.api.trace.Span span = trace.child("router.schedule");
    try {
      RoutingDecision d = schedule(input, parsed, excluded, earlier, trace, span);
      trace.scheduled(span, d.result(), d.request());
      span.end();
      return d;
    } catch (RuntimeException e) {
      RequestSpans.failed(span, e);
      throw e;
    }
  }

  private RoutingDecision schedule(RequestInput input, ParsedRequest parsed, Set<EndpointId> excluded,
      InferenceRequest earlier, RequestTrace trace, io.opentelemetry.api.trace.Span span) {
    List<EndpointState> states = locator.locate(input, excluded);
    InferenceRequest request = inferenceRequest(input, parsed);
    if (earlier != null) {
      request.inheritAttributes(earlier);
    }
    if (span.isRecording()) {
      trace.identified(request);
      trace.markForScores(request);
      request.attribute(RequestTrace.CANDIDATES, states.size());
    }
    List<Candidate> candidates = new ArrayList<>(states.size());
    for (EndpointState s : states) {
      candidates.add(new Candidate(s));
    }
    for (PrepareDataPlugin p : setup.lifecycle().prepareData()) {
      runPlugin("PrepareData", p, request, () -> p.prepareRequestData(request, candidates));
    }
    SchedulingResult result;
    try {
      result = setup.scheduler().schedule(request, candidates);
    } catch (SchedulingException e) {
      metrics.schedulerAttempts.inc("failure", labels.model(parsed.targetModel()), "", "", "");
      throw new RouterException(ErrorCode.RESOURCE_EXHAUSTED, "failed to find target endpoint: " + e.getMessage());
    }
    for (PreRequestPlugin p : setup.lifecycle().preRequest()) {
      long t = System.nanoTime();
      p.preRequest(request, result);
      metrics.pluginDuration("PreRequest", p, System.nanoTime() - t);
    }
    if (parsed.body() != null) {
      parsed.body().dropUserInput(); // computed again from the raw bytes if a later plugin asks
    }
    List<Destination> destinations = new ArrayList<>();
    for (Candidate c : result.primary().targets()) {
      destinations.add(Destination.of(c.state()));
    }
    EndpointState first = result.primary().targets().get(0).state();
    first.picked();
    metrics.schedulerAttempts.inc("success", labels.model(parsed.targetModel()), first.id().name(), first.id().namespace(),
        String.valueOf(first.endpoint().port()));
    for (Map.Entry<String, ProfileRunResult> e : result.profileResults().entrySet()) {
      SchedulerProfile profile = setup.scheduler().profiles().get(e.getKey());
      if (profile != null && e.getValue() != null) {
        metrics.pluginDecisions.add(e.getValue().targets().size(), "Picker", profile.picker().type(),
            profile.picker().name(), "picked");
      }
    }
    recordPicked(parsed);
    return new RoutingDecision(input, request, result, destinations, 0, parsed.forwardBody(), parsed.rewritten(),
        null);
  }

  /** Runs a plugin whose failure must not fail the request (it is logged and counted in its duration). */
  private void runPlugin(String extensionPoint, Plugin plugin, InferenceRequest request, Runnable call) {
    long t = System.nanoTime();
    try {
      call.run();
    } catch (RuntimeException e) {
      try (MDC.MDCCloseable id = MDC.putCloseable(RequestIds.MDC_KEY, request.requestId())) {
        LOG.atWarn().setCause(e).addKeyValue("extension_point", extensionPoint).addKeyValue("plugin", plugin.name())
            .log("plugin failed");
      }
    }
    metrics.pluginDuration(extensionPoint, plugin, System.nanoTime() - t);
  }

  void recordPicked(ParsedRequest parsed) {
    String model = labels.model(parsed.incomingModel());
    String target = labels.model(parsed.targetModel());
    metrics.requestTotal.inc(model, target, String.valueOf(parsed.priority()));
    metrics.requestSizes.observe(parsed.forwardBody().length, model, target);
  }

  void recordError(String model, String target, RouterException e) {
    metrics.requestErrorTotal.inc(labels.model(model), labels.model(target), e.code().code());
  }

  /** A request's model and target model labels, resolved on first use and kept with the request. */
  private String[] labels(InferenceRequest request) {
    String[] l = request.attribute(LABELS);
    if (l == null) {
      l = new String[] {labels.model(request.incomingModel()), labels.model(request.targetModel())};
      request.attribute(LABELS, l);
    }
    return l;
  }

  /** The label of a request's model, for the front ends' own metrics. */
  public String modelLabel(RoutingDecision decision) {
    return decision == null ? "" : labels(decision.request())[0];
  }

  static RuntimeException unwrap(Throwable t) {
    Throwable c = t;
    while (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c instanceof RuntimeException r ? r : new CompletionException(c);
  }

  /** Stops flow control, rejecting what is queued. */
  @Override
  public void close() {
    admission.close();
  }
}
