package dev.modelplane.router.request;

import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The pick step made by an external endpoint picker (client mode's {@code --epp}, or the picker a pool names): the
 * body is read leniently, the picker answers the destinations, header changes and body; when it cannot be reached,
 * {@code failOpen} sends the request to a random endpoint of the pool instead of answering 503.
 */
final class ExternalRoute {
  /** The director's log lines, this step's included, share one logger. */
  private static final Logger LOG = LoggerFactory.getLogger(RequestDirector.class);

  private final RequestDirector director;
  private final ExternalPicker picker;
  private final boolean failOpen;
  private final RequestJson json;
  /** The picker as the 503 names it; {@code null} for client mode's single picker. */
  private final String name;

  ExternalRoute(RequestDirector director, ExternalPicker picker, String name, boolean failOpen, RequestJson json) {
    this.director = director;
    this.picker = picker;
    this.name = name;
    this.failOpen = failOpen;
    this.json = json;
  }

  /**
   * The pick step of a pool's own picker: asked over ext_proc when it has an address; without one, a FailClose pool
   * answers 503 naming it. {@code null} when this router picks (no picker of its own, this router is it, or a
   * FailOpen pool's picker has no address).
   */
  static RequestDirector.PendingDecision byPoolPicker(RequestDirector director, PoolPickers.Choice choice,
      RequestInput input, RequestJson json) {
    switch (choice) {
      case PoolPickers.Choice.Remote r -> {
        return new ExternalRoute(director, r.picker(), r.name(), r.failOpen(), json).route(input);
      }
      case PoolPickers.Choice.Unreachable u when !u.failOpen() -> {
        ParsedRequest parsed = ParsedRequest.readLeniently(input, json);
        RouterException e = new RouterException(ErrorCode.SERVICE_UNAVAILABLE, u.message());
        director.recordError(parsed.incomingModel(), parsed.targetModel(), e);
        return new RequestDirector.PendingDecision(CompletableFuture.failedFuture(e), () -> { });
      }
      default -> {
        return null;
      }
    }
  }

  RequestDirector.PendingDecision route(RequestInput input) {
    ParsedRequest parsed = ParsedRequest.readLeniently(input, json);
    InferenceRequest request = RequestDirector.inferenceRequest(input, parsed);
    ExternalPicker.Exchange exchange = picker.pick(input, parsed.requestId());
    CompletableFuture<RoutingDecision> decision = exchange.answer().handle((answer, err) -> {
      if (err == null) {
        answer.setHeaders().forEach(request::setHeader);
        answer.removeHeaders().forEach(request::removeHeader);
        List<Destination> destinations = new ArrayList<>();
        for (String hp : answer.destinations()) {
          destinations.add(Destination.parse(hp, input.pool()));
        }
        director.recordPicked(parsed);
        return new RoutingDecision(input, request, null, destinations, 0, answer.body(), false, exchange);
      }
      exchange.close();
      Throwable cause = RequestDirector.unwrap(err);
      if (cause instanceof RouterException e) {
        director.recordError(parsed.incomingModel(), parsed.targetModel(), e);
        throw e;
      }
      Destination any = failOpen ? director.any(input.pool(), null) : null;
      if (any == null) {
        RouterException e = new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
            "endpoint picker " + (name == null ? "" : name + " ") + "unavailable: " + cause.getMessage());
        director.recordError(parsed.incomingModel(), parsed.targetModel(), e);
        throw e;
      }
      try (MDC.MDCCloseable id = MDC.putCloseable(RequestIds.MDC_KEY, parsed.requestId())) {
        LOG.atWarn().setCause(cause).addKeyValue("picker", name == null ? "--epp" : name)
            .addKeyValue("endpoint", any.hostPort())
            .log("endpoint picker failed, failing open");
      }
      director.recordPicked(parsed);
      return new RoutingDecision(input, request, null, List.of(any), 0, input.body(), false, null);
    });
    return new RequestDirector.PendingDecision(decision, exchange::close);
  }
}
