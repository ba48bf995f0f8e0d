package dev.modelplane.common.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's OpenTelemetry, on or off. Off is {@link OpenTelemetry#noop()}: spans are non-recording singletons, no
 * exporter, no thread. On, spans are batched to the configured exporter with W3C {@code traceparent} propagation;
 * {@link #close()} flushes what is pending and stops the exporter (also on exit, through {@link #closeOnExit()}).
 */
public final class Tracing implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
  private static final Tracing OFF = new Tracing(OpenTelemetry.noop(), null, TracingSettings.off());

  private final OpenTelemetry openTelemetry;
  private final SdkTracerProvider provider;
  private final TracingSettings settings;

  private Tracing(OpenTelemetry openTelemetry, SdkTracerProvider provider, TracingSettings settings) {
    this.openTelemetry = openTelemetry;
    this.provider = provider;
    this.settings = settings;
  }

  /** Tracing off. */
  public static Tracing off() {
    return OFF;
  }

  /** Tracing as {@code settings} say; {@link #off()} when they are off. */
  public static Tracing start(TracingSettings settings) {
    if (!settings.enabled()) {
      return OFF;
    }
    SpanExporter exporter = switch (settings.exporter()) {
      case OTLP -> otlpExporter(settings);
      case CONSOLE -> new ConsoleSpanExporter();
      case NONE -> null;
    };
    SpanProcessor processor = exporter == null ? SpanProcessor.composite()
        : settings.exporter() == TracingSettings.Exporter.CONSOLE ? SimpleSpanProcessor.create(exporter)
        : BatchSpanProcessor.builder(exporter).build();
    Tracing t = build(settings, processor);
    LOG.atInfo().addKeyValue("service", settings.serviceName()).addKeyValue("exporter", settings.exporter())
        .addKeyValue("protocol", settings.exporter() == TracingSettings.Exporter.OTLP ? settings.protocol().envName()
            : null)
        .addKeyValue("endpoint", settings.tracesEndpoint()).addKeyValue("sampler", settings.sampler())
        .addKeyValue("ratio", settings.sampler().endsWith("traceidratio") ? settings.ratio() : null)
        .log("tracing on");
    return t;
  }

  private static SpanExporter otlpExporter(TracingSettings settings) {
    String endpoint = settings.tracesEndpoint().toString();
    return switch (settings.protocol()) {
      case HTTP_PROTOBUF -> OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build();
      // The gRPC sender is ours (OtlpGrpcSenderProvider), found through META-INF/services.
      case GRPC -> OtlpGrpcSpanExporter.builder().setEndpoint(endpoint).build();
    };
  }

  /** Tracing with {@code settings}' sampler and resource, exporting each span at once to {@code exporter} (tests). */
  public static Tracing withExporter(TracingSettings settings, SpanExporter exporter) {
    return build(settings, SimpleSpanProcessor.create(exporter));
  }

  private static Tracing build(TracingSettings settings, SpanProcessor processor) {
    AttributesBuilder attributes = Attributes.builder();
    settings.resourceAttributes().forEach(attributes::put);
    attributes.put("service.name", settings.serviceName());
    SdkTracerProvider provider = SdkTracerProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(attributes.build())))
        .setSampler(Samplers.of(settings.sampler(), settings.ratio()))
        .addSpanProcessor(processor)
        .build();
    OpenTelemetry otel = OpenTelemetrySdk.builder().setTracerProvider(provider)
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
    return new Tracing(otel, provider, settings);
  }

  /** Whether spans can be recorded at all; false means every span is a no-op. */
  public boolean enabled() {
    return provider != null;
  }

  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /** The tracer of {@code instrumentation} (e.g. {@code dev.modelplane.router}). */
  public Tracer tracer(String instrumentation) {
    return openTelemetry.getTracer(instrumentation);
  }

  public TracingSettings settings() {
    return settings;
  }

  /** Closes this tracing when the JVM exits, so batched spans are not lost. */
  public Tracing closeOnExit() {
    if (enabled()) {
      Runtime.getRuntime().addShutdownHook(new Thread(this::close, "tracing-shutdown"));
    }
    return this;
  }

  /** Exports what is pending and stops the exporter; waits at most five seconds. */
  @Override
  public void close() {
    if (provider != null) {
      CompletableResultCode done = provider.shutdown().join(5, TimeUnit.SECONDS);
      if (!done.isSuccess()) {
        LOG.atWarn().log("tracing: not every span could be exported at shutdown");
      }
    }
  }

  /** The settings of the environment of this process (see {@link TracingSettings#fromEnv}). */
  public static Map<String, String> environment() {
    return System.getenv();
  }
}
