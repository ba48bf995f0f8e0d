package dev.modelplane.planner.fleet;

import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.simulator.VirtualServer;

/**
 * One client's request through the run: sent at its arrival, routed by the director, streamed by its server. It
 * reports to the director what the gateway would (started, response head, finished, complete with the stream's
 * timing) and to the statistics what the client saw.
 */
final class ClientRequest implements VirtualServer.Client {
  /** Bytes of one streamed chunk carrying one token, roughly, for the router's response-size accounting. */
  private static final int CHUNK_BYTES = 160;

  final PlannedRequest request;
  final long sentNanos;
  private final Fleet fleet;
  private RoutingDecision decision;
  long firstTokenNanos = -1;
  long lastTokenNanos = -1;
  int tokens;

  ClientRequest(PlannedRequest request, long sentNanos, Fleet fleet) {
    this.request = request;
    this.sentNanos = sentNanos;
    this.fleet = fleet;
  }

  /** The director chose where the request goes: send it there. */
  void forward(RoutingDecision d) {
    this.decision = d;
    RequestDirector director = fleet.director();
    director.started(d);
    int server = fleet.serverOf(d.destination().state());
    VirtualServer.Refusal refusal = fleet.submit(server, d.body(), this);
    if (refusal != null) {
      director.responseReceived(d, refusal.status(), d.destination());
      director.finished(d, true);
      director.complete(d, new ResponseOutcome(refusal.status(), true, refusal.message().length()), fleet.time.now());
      fleet.stats.refused(this);
      return;
    }
    // A streamed response's head goes out at once; its first event comes with the first token.
    director.responseReceived(d, 200, d.destination());
  }

  @Override
  public void token(long nanos, int index) {
    if (index == 0) {
      firstTokenNanos = nanos;
    }
    lastTokenNanos = nanos;
    tokens++;
  }

  @Override
  public void finished(long nanos, String reason, int promptTokens, int cachedTokens) {
    RequestDirector director = fleet.director();
    director.finished(decision, true);
    director.complete(decision, new ResponseOutcome(200, true, (long) tokens * CHUNK_BYTES, firstTokenNanos,
        lastTokenNanos, tokens), nanos);
    fleet.stats.completed(this, nanos, promptTokens, cachedTokens);
  }
}
