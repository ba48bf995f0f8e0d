package dev.modelplane.router.extproc;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC side of the picker: ext_proc on {@code --grpc-port} (GIE: 9002) and the health service, on the same port
 * and on {@code --grpc-health-port} (GIE: 9003), reporting {@code liveness}, {@code readiness} and
 * {@code envoy.service.ext_proc.v3.ExternalProcessor}. The ext_proc port serves TLS unless told otherwise (GIE's
 * {@code --secure-serving}); the health-only port stays plaintext for the kubelet's gRPC probes, as GIE's does.
 */
public final class ExtProcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ExtProcServer.class);

  public static final String LIVENESS = "liveness";
  public static final String READINESS = "readiness";
  /** GIE's health service name for a single (not leader-elected) picker; follows readiness. */
  public static final String INFERENCE_EXTENSION = "inference-extension";
  public static final String EXT_PROC_SERVICE = ExternalProcessorGrpc.SERVICE_NAME;

  private final HealthStatusManager health = new HealthStatusManager();
  private final Server server;
  private final Server healthServer;
  private final ReloadingKeyManager keyManager;

  /** A plaintext server. */
  public ExtProcServer(String host, int port, int healthPort, BindableService extProc) throws IOException {
    this(host, port, healthPort, extProc, GrpcTls.ServerTls.PLAINTEXT);
  }

  public ExtProcServer(String host, int port, int healthPort, BindableService extProc, GrpcTls.ServerTls tls)
      throws IOException {
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port));
    if (tls.secure()) {
      keyManager = GrpcTls.keyManager(tls);
      builder.sslContext(GrpcTls.serverContext(keyManager));
      if (tls.reload() && tls.certPath() != null) {
        keyManager.watch(tls.certPath(), Duration.ofSeconds(2));
      }
      LOG.atInfo().addKeyValue("certificate", tls.certPath() == null ? "self-signed" : tls.certPath().toString())
          .addKeyValue("reload", tls.reload() && tls.certPath() != null)
          .addKeyValue("not_after", keyManager.certificate().getNotAfter().toInstant()).log("ext_proc serves TLS");
    } else {
      keyManager = null;
      LOG.atInfo().log("ext_proc serves plaintext (--secure-serving=false)");
    }
    this.server = builder
        .addService(extProc)
        .addService(health.getHealthService())
        .maxInboundMessageSize(16 * 1024 * 1024)
        .build()
        .start();
    this.healthServer = healthPort < 0 ? null : NettyServerBuilder.forAddress(new InetSocketAddress(host, healthPort))
        .addService(health.getHealthService())
        .build()
        .start();
    health.setStatus(LIVENESS, ServingStatus.SERVING);
    health.setStatus(EXT_PROC_SERVICE, ServingStatus.SERVING);
    health.setStatus(READINESS, ServingStatus.NOT_SERVING);
    health.setStatus(INFERENCE_EXTENSION, ServingStatus.NOT_SERVING);
    LOG.atInfo().addKeyValue("host", host).addKeyValue("port", server.getPort())
        .addKeyValue("health_port", healthServer == null ? -1 : healthServer.getPort()).log("ext_proc listening");
  }

  public int port() {
    return server.getPort();
  }

  public int healthPort() {
    return healthServer == null ? -1 : healthServer.getPort();
  }

  /** Readiness follows discovery: ready once the pools have synced. */
  public void ready(boolean ready) {
    health.setStatus(READINESS, ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
    health.setStatus(INFERENCE_EXTENSION, ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
    health.setStatus("", ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
  }

  @Override
  public void close() throws InterruptedException {
    if (keyManager != null) {
      keyManager.close();
    }
    health.enterTerminalState();
    server.shutdown();
    if (healthServer != null) {
      healthServer.shutdown();
    }
    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
      server.shutdownNow();
    }
    if (healthServer != null && !healthServer.awaitTermination(5, TimeUnit.SECONDS)) {
      healthServer.shutdownNow();
    }
  }
}
