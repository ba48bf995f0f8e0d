package dev.modelplane.router.proxy;

import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RouterException;
import dev.modelplane.router.request.RoutingDecision;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Picks in-process with the router's own scheduler. */
public final class DirectorSelector implements UpstreamSelector {
  private final RequestDirector director;

  public DirectorSelector(RequestDirector director) {
    this.director = director;
  }

  @Override
  public Pending select(EndpointPool pool, String path, Map<String, String> headers, byte[] body,
      long receivedNanos) {
    RequestDirector.PendingRoute route = director.route(new RequestInput(pool, path, headers, body, null,
        receivedNanos));
    return new Pending(route.decision().thenApply(d -> new Selection(d, d.targets().get(0))), route::cancel);
  }

  @Override
  public UpstreamTarget any(EndpointPool pool) {
    EndpointState s = director.randomEndpoint(pool, null);
    return s == null ? null : UpstreamTarget.of(s);
  }

  private final class Selection implements UpstreamSelection {
    private final RoutingDecision decision;
    private final EndpointState target;

    Selection(RoutingDecision decision, EndpointState target) {
      this.decision = decision;
      this.target = target;
    }

    @Override
    public UpstreamTarget target() {
      return UpstreamTarget.of(target);
    }

    @Override
    public byte[] body() {
      return decision.body();
    }

    @Override
    public Map<String, String> setHeaders() {
      return decision.request().setHeaders();
    }

    @Override
    public Set<String> removeHeaders() {
      return decision.request().removedHeaders();
    }

    @Override
    public String incomingModel() {
      return decision.request().incomingModel();
    }

    @Override
    public String targetModel() {
      return decision.request().targetModel();
    }

    @Override
    public String requestId() {
      return decision.request().requestId();
    }

    @Override
    public UpstreamSelection retry(Set<String> failed) {
      // Walk the picker's ordered list first (maxNumOfEndpoints > 1), then schedule again without the failures.
      for (EndpointState s : decision.targets()) {
        if (!failed.contains(s.endpoint().hostPort())) {
          return new Selection(decision, s);
        }
      }
      Set<EndpointId> excluded = new HashSet<>();
      for (EndpointState s : decision.pool().endpoints()) {
        if (failed.contains(s.endpoint().hostPort())) {
          excluded.add(s.id());
        }
      }
      try {
        RoutingDecision next = director.reschedule(decision, excluded);
        return new Selection(next, next.targets().get(0));
      } catch (RouterException e) {
        return null;
      }
    }

    @Override
    public void started(UpstreamTarget t) {
      director.started(decision, target);
    }

    @Override
    public void finished(UpstreamTarget t, boolean completed, long responseBytes) {
      director.finished(decision, target);
    }
  }

  public RequestDirector director() {
    return director;
  }
}
