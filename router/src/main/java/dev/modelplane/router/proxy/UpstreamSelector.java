package dev.modelplane.router.proxy;

import dev.modelplane.router.pool.EndpointPool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Chooses upstream endpoints for gateway requests. */
public interface UpstreamSelector {
  /** A selection in progress; {@link #cancel()} withdraws it (client went away while queued). */
  record Pending(CompletableFuture<UpstreamSelection> selection, Runnable canceller) {
    public void cancel() {
      canceller.run();
    }
  }

  /**
   * Selects for a request. The future fails with a {@link dev.modelplane.router.request.RouterException} when the
   * request is answered without an upstream (400, 429, 503…).
   */
  Pending select(EndpointPool pool, String path, Map<String, String> headers, byte[] body, long receivedNanos);

  /** An endpoint for a request that needs no scheduling (e.g. {@code GET /v1/models}); null when none. */
  UpstreamTarget any(EndpointPool pool);

  /** Endpoints per pool, for {@code /health}. */
  default List<EndpointPool> pools() {
    return List.of();
  }
}
