package dev.modelplane.common.tracing;

import io.grpc.Codec;
import io.grpc.CompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.handler.ssl.ApplicationProtocolConfig;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import io.opentelemetry.sdk.common.export.Compressor;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * OTLP/gRPC for the OpenTelemetry exporters on the gRPC stack the router already carries (grpc-java over its shaded
 * Netty), found by the exporters through {@code META-INF/services}. One channel per exporter: {@code http://}
 * endpoints are plaintext HTTP/2, {@code https://} ones TLS with the exporter's SSL context when it has one, else
 * the JVM's trust store; the exporter's retry policy becomes the channel's retry policy for the export method.
 */
public final class OtlpGrpcSenderProvider implements GrpcSenderProvider {
  /** The statuses OTLP calls retryable (RESOURCE_EXHAUSTED only with server advice, which is not read here). */
  static final List<String> RETRYABLE_STATUSES = List.of("CANCELLED", "DEADLINE_EXCEEDED", "ABORTED",
      "OUT_OF_RANGE", "UNAVAILABLE", "DATA_LOSS");

  @Override
  public GrpcSender createSender(GrpcSenderConfig config) {
    URI endpoint = config.getEndpoint();
    boolean tls = "https".equals(endpoint.getScheme());
    int port = endpoint.getPort() > 0 ? endpoint.getPort() : tls ? 443 : 80;
    NettyChannelBuilder channel = NettyChannelBuilder.forAddress(endpoint.getHost(), port);
    if (!tls) {
      channel.negotiationType(NegotiationType.PLAINTEXT);
    } else if (config.getSslContext() != null) {
      channel.sslContext(new JdkSslContext(config.getSslContext(), true, null, IdentityCipherSuiteFilter.INSTANCE,
          new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
              ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
              ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2"),
          ClientAuth.NONE, enabledProtocols(config), false));
    } else {
      channel.negotiationType(NegotiationType.TLS);
    }
    Duration connectTimeout = config.getConnectTimeout();
    if (connectTimeout != null && connectTimeout.toMillis() > 0) {
      channel.withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
          connectTimeout.toMillis()));
    }
    long maxResponse = config.getMaxResponseBodySize();
    if (maxResponse > 0) {
      channel.maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE, maxResponse));
    }
    if (config.getExecutorService() != null) {
      channel.executor(config.getExecutorService());
    }
    String compression = null;
    Compressor compressor = config.getCompressor();
    if (compressor != null) {
      CompressorRegistry registry = CompressorRegistry.newEmptyInstance();
      registry.register(Codec.Identity.NONE);
      registry.register(new CompressorAdapter(compressor));
      channel.compressorRegistry(registry);
      compression = compressor.getEncoding();
    }
    RetryPolicy retry = config.getRetryPolicy();
    if (retry != null && retry.getMaxAttempts() > 1) {
      channel.defaultServiceConfig(retryServiceConfig(config.getFullMethodName(), retry))
          .maxRetryAttempts(retry.getMaxAttempts()).enableRetry();
    } else {
      channel.disableRetry();
    }
    ManagedChannel built = channel.build();
    return new OtlpGrpcSender(built, config.getFullMethodName(), compression, config.getTimeout(),
        config.getHeadersSupplier());
  }

  private static String[] enabledProtocols(GrpcSenderConfig config) {
    List<String> protocols = config.getEnabledProtocols();
    return protocols == null || protocols.isEmpty() ? null : protocols.toArray(String[]::new);
  }

  /**
   * gRPC's service config retrying {@code fullMethodName} as {@code retry} says. The config's JSON form wants every
   * number as a double and every duration as decimal seconds with an {@code s}.
   */
  static Map<String, ?> retryServiceConfig(String fullMethodName, RetryPolicy retry) {
    int slash = fullMethodName.lastIndexOf('/');
    Map<String, ?> name = Map.of("service", fullMethodName.substring(0, slash),
        "method", fullMethodName.substring(slash + 1));
    Map<String, ?> policy = Map.of(
        "maxAttempts", (double) retry.getMaxAttempts(),
        "initialBackoff", seconds(retry.getInitialBackoff()),
        "maxBackoff", seconds(retry.getMaxBackoff()),
        "backoffMultiplier", retry.getBackoffMultiplier(),
        "retryableStatusCodes", RETRYABLE_STATUSES);
    return Map.of("methodConfig", List.of(Map.of("name", List.of(name), "retryPolicy", policy)));
  }

  private static String seconds(Duration d) {
    return java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString() + "s";
  }

  /** The exporter's compressor under its own encoding name, for gRPC's message compression. */
  private record CompressorAdapter(Compressor compressor) implements io.grpc.Compressor {
    @Override
    public String getMessageEncoding() {
      return compressor.getEncoding();
    }

    @Override
    public OutputStream compress(OutputStream os) throws IOException {
      return compressor.compress(os);
    }
  }
}
