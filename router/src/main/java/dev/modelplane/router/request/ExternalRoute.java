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
 * The pick step made by an external endpoint picker (client mode): the body is read leniently, the picker answers
 * the destinations, header changes and body; when it cannot be reached, {@code failOpen} sends the request to a
 * random endpoint of the pool instead of answering 503.
 */
final class ExternalRoute {
  /** The director's log lines, this step's included, share one logger. */
  private static final Logger LOG = LoggerFactory.getLogger(RequestDirector.class);

  private final RequestDirector director;
  private final ExternalPicker picker;
  private final boolean failOpen;
  private final RequestJson json;

  ExternalRoute(RequestDirector director, ExternalPicker picker, boolean failOpen, RequestJson json) {
    this.director = director;
    this.picker = picker;
    this.failOpen = failOpen;
    this.json = json;
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
            "endpoint picker unavailable: " + cause.getMessage());
        director.recordError(parsed.incomingModel(), parsed.targetModel(), e);
        throw e;
      }
      try (MDC.MDCCloseable id = MDC.putCloseable(RequestIds.MDC_KEY, parsed.requestId())) {
        LOG.atWarn().setCause(cause).addKeyValue("endpoint", any.hostPort())
            .log("endpoint picker failed, failing open");
      }
      director.recordPicked(parsed);
      return new RoutingDecision(input, request, null, List.of(any), 0, input.body(), false, null);
    });
    return new RequestDirector.PendingDecision(decision, exchange::close);
  }
}
