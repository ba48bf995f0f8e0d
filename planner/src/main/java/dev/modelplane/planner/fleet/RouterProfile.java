package dev.modelplane.planner.fleet;

/**
 * The router configurations a plan compares: the router's default scheduling (queue, KV-cache, approximate
 * prefix-cache and LoRA scorers), precise prefix routing from the servers' KV-cache events, and predicted-latency
 * scheduling.
 */
public enum RouterProfile {
  DEFAULT("default"),
  PRECISE("precise"),
  PREDICTIVE("predictive");

  private final String label;

  RouterProfile(String label) {
    this.label = label;
  }

  /** The name used on the command line and in reports. */
  public String label() {
    return label;
  }

  /** The servers' {@code PYTHONHASHSEED} a deployed precise profile assumes (its block hashes then equal the router's). */
  public static final String HASH_SEED = "42";
  /** Where each server publishes its KV-cache events (vLLM's default port). */
  public static final int EVENTS_PORT = 5557;

  /**
   * The router's configuration for this profile, for servers with KV blocks of {@code blockSize} tokens — what a
   * plan simulates and what {@code plan --emit} deploys: the router's default; the same scorers and weights with
   * {@code precise-prefix-cache-scorer} (the servers' KV-cache events) in place of the approximate prefix scorer; or
   * the predicted-latency scorer over the approximate prefix match (docs/router.md).
   */
  public String pickerConfig(int blockSize) {
    String defaults = dev.modelplane.router.config.ConfigLoader.DEFAULT_CONFIG;
    return switch (this) {
      case DEFAULT -> defaults;
      case PRECISE -> {
        String precise = """
            - type: precise-prefix-cache-scorer
              parameters:
                tokenProcessorConfig: {blockSize: %d, hashSeed: "%s"}
                kvEventsConfig: {podDiscoveryConfig: {socketPort: %d}}
            """.formatted(blockSize, HASH_SEED, EVENTS_PORT);
        String out = defaults.replace("- type: prefix-cache-scorer\n", precise)
            .replace("pluginRef: prefix-cache-scorer\n", "pluginRef: precise-prefix-cache-scorer\n");
        if (out.equals(defaults)) {
          throw new IllegalStateException("the router's default configuration has no prefix-cache-scorer");
        }
        yield out;
      }
      case PREDICTIVE -> """
          apiVersion: inference.networking.x-k8s.io/v1alpha1
          kind: EndpointPickerConfig
          plugins:
          - type: approx-prefix-cache-producer
          - type: predicted-latency-scorer
          - type: max-score-picker
          - type: metrics-data-source
          - type: core-metrics-extractor
          schedulingProfiles:
          - name: default
            plugins:
            - pluginRef: predicted-latency-scorer
            - pluginRef: max-score-picker
          dataLayer:
            sources:
            - pluginRef: metrics-data-source
              extractors:
              - pluginRef: core-metrics-extractor
          """;
    };
  }

  /** The profile named {@code name} (case-insensitive). */
  public static RouterProfile of(String name) {
    for (RouterProfile p : values()) {
      if (p.label.equalsIgnoreCase(name.trim())) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown router profile \"" + name + "\"; known: default, precise, predictive");
  }
}
