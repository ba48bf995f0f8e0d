package dev.modelplane.router.extproc;

import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestLimits;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;

/** {@code envoy.service.ext_proc.v3.ExternalProcessor/Process}: one {@link ExtProcStream} per stream. */
public final class ExtProcService extends ExternalProcessorGrpc.ExternalProcessorImplBase {
  private final RequestDirector director;
  private final PoolRegistry pools;
  private final RouterMetrics metrics;
  private final boolean disableSubsetFilter;
  private final long maxBodyBytes;

  /** Default body cap: the gateway's default {@code --max-body-bytes}. */
  public static final long DEFAULT_MAX_BODY_BYTES = RequestLimits.DEFAULT_MAX_BODY_BYTES;

  public ExtProcService(RequestDirector director, PoolRegistry pools, RouterMetrics metrics,
      boolean disableSubsetFilter) {
    this(director, pools, metrics, disableSubsetFilter, DEFAULT_MAX_BODY_BYTES);
  }

  /**
   * @param maxBodyBytes request bodies above this are answered 413; response bodies above it are passed through
   *     unparsed instead of buffered
   */
  public ExtProcService(RequestDirector director, PoolRegistry pools, RouterMetrics metrics,
      boolean disableSubsetFilter, long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
    this.director = director;
    this.pools = pools;
    this.metrics = metrics;
    this.disableSubsetFilter = disableSubsetFilter;
  }

  @Override
  public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> responseObserver) {
    return new ExtProcStream(responseObserver, director, pools, metrics, disableSubsetFilter, maxBodyBytes);
  }
}
