package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.SchedulingResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.function.BiConsumer;

/**
 * The spans of one request through the router: a SERVER span ({@code router.request}, from the front end) with
 * children for body parsing ({@code router.parse}), the admission / flow-control wait ({@code router.admission}),
 * scheduling ({@code router.schedule}) and each upstream attempt ({@code router.upstream}, CLIENT, whose context is
 * what the model server receives as {@code traceparent}). {@link #OFF} does nothing and costs nothing; attributes are
 * built only for recording spans.
 */
public final class RequestTrace {
  /** Tracing off: every method returns at once. */
  public static final RequestTrace OFF = new RequestTrace(null, Span.getInvalid(), Context.root());

  /** A candidate attribute key prefix under which a traced request's scorers leave their scores. */
  public static final String SCORE_PREFIX = "trace.score.";
  /** The request attribute that asks the scheduler to keep per-scorer scores (present only when recording). */
  public static final String KEEP_SCORES = "trace.keepScores";
  /** The request attribute with the number of candidates scheduling saw (recording requests only). */
  static final String CANDIDATES = "trace.candidates";

  private final RequestTracer tracer;
  private final Span server;
  private final Context context;
  private volatile Span upstream;
  private volatile Context upstreamContext;
  private volatile boolean ended;

  RequestTrace(RequestTracer tracer, Span server, Context context) {
    this.tracer = tracer;
    this.server = server;
    this.context = context;
    this.upstreamContext = context;
  }

  /** Whether tracing is on for this request (its spans may still be unsampled); false for {@link #OFF}. */
  public boolean active() {
    return tracer != null;
  }

  /** Whether this request's spans record (tracing on and sampled). */
  public boolean recording() {
    return server.isRecording();
  }

  /** The SERVER span (an invalid span when off). */
  public Span server() {
    return server;
  }

  /** A child span of the request span; the invalid span when off. */
  public Span child(String name) {
    if (tracer == null) {
      return Span.getInvalid();
    }
    return tracer.tracer().spanBuilder(name).setParent(context).startSpan();
  }

  /** Notes the scheduling's outcome on {@code span}: endpoint, profile, candidate count, the scorers' scores. */
  void scheduled(Span span, SchedulingResult result, InferenceRequest request) {
    if (!span.isRecording()) {
      return;
    }
    Integer candidates = request.attribute(CANDIDATES);
    Candidate chosen = result.primary().targets().get(0);
    span.setAttribute("modelplane.scheduling.profile", result.primaryProfileName());
    if (candidates != null) {
      span.setAttribute("modelplane.scheduling.candidates", candidates);
    }
    span.setAttribute("modelplane.endpoint", chosen.endpoint().hostPort());
    span.setAttribute("modelplane.endpoint.name", chosen.state().id().name());
    if (chosen.attributes() != null) {
      chosen.attributes().forEach((k, v) -> {
        if (k.startsWith(SCORE_PREFIX) && v instanceof Double d) {
          span.setAttribute("modelplane.scheduling.score." + k.substring(SCORE_PREFIX.length()), d);
        }
      });
    }
  }

  /** Asks the scheduler to keep per-scorer scores for this request, when recording. */
  void markForScores(InferenceRequest request) {
    if (recording()) {
      request.attribute(KEEP_SCORES, Boolean.TRUE);
    }
  }

  /** Notes the request's identity on the server span once it is parsed. */
  void identified(InferenceRequest request) {
    if (!server.isRecording()) {
      return;
    }
    server.setAttribute("gen_ai.request.id", request.requestId());
    server.setAttribute("gen_ai.request.model", request.incomingModel());
    server.setAttribute("modelplane.target_model", request.targetModel());
  }

  /** An upstream attempt to {@code destination} starts: a CLIENT span, the one {@link #injectUpstream} sends. */
  void upstreamStarted(Destination destination, int attempt) {
    if (tracer == null) {
      return;
    }
    Span s = tracer.tracer().spanBuilder("router.upstream").setParent(context).setSpanKind(SpanKind.CLIENT)
        .startSpan();
    if (s.isRecording()) {
      s.setAttribute("server.address", destination.host());
      s.setAttribute("server.port", destination.port());
      s.setAttribute("modelplane.attempt", attempt);
    }
    upstream = s;
    upstreamContext = context.with(s);
  }

  /** The upstream's response head arrived: its status and the time to first byte (an event). */
  void upstreamResponded(int status) {
    Span s = upstream;
    if (s != null && s.isRecording()) {
      s.setAttribute("http.response.status_code", status);
      s.addEvent("first_byte");
      if (status >= 500) {
        s.setStatus(StatusCode.ERROR);
      }
    }
  }

  /** The upstream attempt ended ({@code completed}: its response reached its end). */
  void upstreamFinished(boolean completed) {
    Span s = upstream;
    if (s != null) {
      upstream = null;
      if (s.isRecording()) {
        s.addEvent(completed ? "stream_end" : "stream_aborted");
      }
      s.end();
    }
  }

  /** Writes the trace headers the model server should see (the current upstream attempt's) through {@code put}. */
  public void injectUpstream(BiConsumer<String, String> put) {
    if (tracer != null) {
      tracer.inject(upstreamContext, put);
    }
  }

  /** Ends the request: {@code status} is what the client got; {@code error} why it failed, else null. */
  public void end(int status, String error) {
    if (tracer == null || ended) {
      return;
    }
    ended = true;
    upstreamFinished(false);
    if (server.isRecording()) {
      server.setAttribute("http.response.status_code", status);
      if (error != null || status >= 500) {
        server.setStatus(StatusCode.ERROR, error == null ? "" : error);
      }
    }
    server.end();
  }
}
