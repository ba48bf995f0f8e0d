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

  /**
   * The router's configuration for this profile, for servers with KV blocks of {@code blockSize} tokens: the
   * router's default; the default with the approximate prefix scorer fed by the servers' KV-cache events instead
   * (same weights); or the predicted-latency scorer over the approximate prefix match (docs/router.md).
   */
  public String pickerConfig(int blockSize) {
    return switch (this) {
      case DEFAULT -> dev.modelplane.router.config.ConfigLoader.DEFAULT_CONFIG;
      case PRECISE -> """
          apiVersion: inference.networking.x-k8s.io/v1alpha1
          kind: EndpointPickerConfig
          plugins:
          - type: queue-scorer
          - type: kv-cache-utilization-scorer
          - type: precise-prefix-cache-producer
            parameters: {tokenProcessorConfig: {blockSize: %d}}
          - type: prefix-cache-scorer
            parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}
          - type: lora-affinity-scorer
          schedulingProfiles:
          - name: default
            plugins:
            - {pluginRef: queue-scorer, weight: 2}
            - {pluginRef: kv-cache-utilization-scorer, weight: 2}
            - {pluginRef: prefix-cache-scorer, weight: 3}
            - {pluginRef: lora-affinity-scorer, weight: 2}
          """.formatted(blockSize);
      case PREDICTIVE -> """
          apiVersion: inference.networking.x-k8s.io/v1alpha1
          kind: EndpointPickerConfig
          plugins:
          - type: approx-prefix-cache-producer
          - type: predicted-latency-scorer
          - type: max-score-picker
          schedulingProfiles:
          - name: default
            plugins: [{pluginRef: predicted-latency-scorer}, {pluginRef: max-score-picker}]
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
