package dev.modelplane.common.tracing;

import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;

/** The standard sampler names of {@code OTEL_TRACES_SAMPLER} and the samplers they stand for. */
final class Samplers {
  static final List<String> NAMES = List.of("always_on", "always_off", "traceidratio", "parentbased_always_on",
      "parentbased_always_off", "parentbased_traceidratio");

  private Samplers() {
  }

  static Sampler of(String name, double ratio) {
    return switch (name) {
      case "always_on" -> Sampler.alwaysOn();
      case "always_off" -> Sampler.alwaysOff();
      case "traceidratio" -> Sampler.traceIdRatioBased(ratio);
      case "parentbased_always_on" -> Sampler.parentBased(Sampler.alwaysOn());
      case "parentbased_always_off" -> Sampler.parentBased(Sampler.alwaysOff());
      case "parentbased_traceidratio" -> Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
      default -> throw new IllegalArgumentException("OTEL_TRACES_SAMPLER=" + name + ": unknown sampler");
    };
  }
}
