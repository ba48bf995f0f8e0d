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
