package dev.modelplane.router;

import dev.modelplane.common.tracing.TracingSettings;
import dev.modelplane.router.request.RequestTracer;
import dev.modelplane.common.logging.LogFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The flags of GIE's endpoint picker that controllers such as OtterScale's pass, accepted so the router runs with
 * their arguments unchanged ({@code --pool-name} and {@code --config-file} are aliases on the command itself).
 * What the router does differently is said at start-up, and what it cannot honour is refused with a message.
 */
public final class GieFlags {
  static final String POOL_GROUP = "inference.networking.k8s.io";
  private static final Logger LOG = LoggerFactory.getLogger(GieFlags.class);

  @Option(names = "--pool-group", defaultValue = POOL_GROUP, paramLabel = "GROUP",
      description = "API group of the InferencePool (GIE's flag); only ${DEFAULT-VALUE} is served.")
  String poolGroup = POOL_GROUP;

  @Option(names = "--zap-encoder", paramLabel = "ENCODER",
      description = "GIE's log encoder: json (same as --log-format json) or console (key=value lines).")
  String zapEncoder;

  @Option(names = "--ha-enable-leader-election", description = "GIE's high-availability flag. Not needed here: "
      + "every replica routes on its own (active-active), so it is accepted and changes nothing.")
  boolean leaderElection;

  @Option(names = "--tracing", arity = "0..1", fallbackValue = "true", defaultValue = "false",
      description = "GIE's OpenTelemetry switch: export a trace per request over OTLP as the OTEL_* variables say "
          + "(OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or grpc, OTEL_SERVICE_NAME, "
          + "OTEL_TRACES_SAMPLER[_ARG]: by default "
          + "parentbased_traceidratio at 0.1, as GIE). Off by default.")
  boolean tracing;

  @Option(names = "--metrics-endpoint-auth", arity = "0..1", fallbackValue = "true",
      description = "GIE's metrics authentication: true asks for a bearer token the Kubernetes API authenticates and "
          + "authorizes for get on /metrics (TokenReview, SubjectAccessReview); false or absent: no token.")
  Boolean metricsEndpointAuth;

  /** Why the flags cannot be honoured, or null. */
  String check() {
    if (!POOL_GROUP.equals(poolGroup)) {
      return "--pool-group " + poolGroup + " is not supported: this router serves " + POOL_GROUP
          + "/v1 InferencePools";
    }
    if (zapEncoder != null && !zapEncoder.equals("json") && !zapEncoder.equals("console")) {
      return "--zap-encoder must be json or console, not '" + zapEncoder + "'";
    }
    return null;
  }

  /**
   * The tracing {@code --tracing} and the environment ask for; GIE's defaults: sampler parentbased_traceidratio at
   * 0.1.
   *
   * @throws IllegalArgumentException naming the variable when a setting is wrong
   */
  TracingSettings tracingSettings(java.util.Map<String, String> env) {
    return TracingSettings.fromEnv(env, tracing, RequestTracer.SERVICE_NAME, null, "parentbased_traceidratio", 0.1);
  }

  /** Whether {@code /metrics} needs a token the Kubernetes API accepts. */
  boolean metricsAuth() {
    return Boolean.TRUE.equals(metricsEndpointAuth);
  }

  /** The log format {@code --zap-encoder} asks for, or null. */
  LogFormat logFormat() {
    return zapEncoder == null ? null : zapEncoder.equals("json") ? LogFormat.JSON : LogFormat.KEYVALUE;
  }

  /** Logs what the GIE flags given change, once logging is set up. */
  void announce(boolean kubernetes) {
    if (leaderElection) {
      LOG.atInfo().log("--ha-enable-leader-election: every replica routes on its own (active-active); no lease "
          + "is taken and every replica reports ready");
    }
    if (kubernetes && metricsEndpointAuth == null) {
      LOG.atWarn().log("the metrics endpoint takes no token unless --metrics-endpoint-auth=true (GIE's default is "
          + "true)");
    }
  }
}
